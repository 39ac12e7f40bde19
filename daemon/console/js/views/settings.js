// Settings: the organization (name, plan, usage against its quota and seats), members and
// roles, invitations, access requests (instance administrator), apps and channels, API
// keys, environments, and deleting the organization (its admins). Each section is its own
// file under settings/; what a member without the admin role may not do, the API refuses
// (403) and the section says so. With no organization left, only creating one is offered.
import { loadChannels } from '../channels.js';
import { html, useState } from '../lib.js';
import { setQuery } from '../router.js';
import { useSession } from '../session.js';
import { ErrorBox, Spinner, useAsync } from '../ui.js';
import { AccessRequestsSection } from './settings/access.js';
import { DangerZone } from './settings/danger.js';
import { ApiKeysSection } from './settings/keys.js';
import { MembersSection } from './settings/members.js';
import { OrganizationSection } from './settings/organization.js';
import { AppsSection, EnvironmentsSection } from './settings/resources.js';

export function SettingsView({ route }) {
  const session = useSession();
  const data = useAsync(() => (session.org ? loadChannels() : null), []);
  // Seats change with members and invitations: the organization card reads them again.
  const [generation, setGeneration] = useState(0);
  const bump = () => setGeneration((n) => n + 1);
  const sections = [
    ['org-title', 'Organization'], ['members-title', 'Members'], ['inv-title', 'Invitations'],
    ...(session.user.instanceAdmin ? [['access-title', 'Access requests']] : []),
    ['apps-title', 'Apps and channels'], ['keys-title', 'API keys'], ['envs-title', 'Environments'],
    ...(session.org?.role === 'admin' ? [['danger-title', 'Delete organization']] : []),
  ];
  const jump = (e, id) => {
    e.preventDefault();
    const target = document.getElementById(id);
    if (target) {
      // Keyboard users continue from the section they jumped to.
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.scrollIntoView({ block: 'start' });
      target.focus({ preventScroll: true });
    }
  };
  // ?deleted=<slug>: the organization just deleted here (the page was loaded again after it).
  const deleted = route.query.deleted ? html`<p class="notice deleted-notice" role="status" data-testid="deleted-notice">
    The organization <span class="mono">${route.query.deleted}</span> and everything in it were deleted.
    <button type="button" class="btn btn-sm btn-ghost" onClick=${() => setQuery({ deleted: '' })}>Dismiss</button></p>` : null;
  if (!session.org) {
    return html`<div class="page">
      <header class="page-head"><h1>Settings</h1></header>
      ${deleted}
      <div class="settings">
        <${OrganizationSection} />
        ${session.user.instanceAdmin ? html`<${AccessRequestsSection} status=${route.query.requests || 'pending'} />` : null}
      </div>
    </div>`;
  }
  return html`<div class="page">
    <header class="page-head"><h1>Settings</h1></header>
    ${deleted}
    <nav class="section-nav" aria-label="Settings sections">
      ${sections.map(([id, label]) => html`<a href=${`#${id}`} onClick=${(e) => jump(e, id)}>${label}</a>`)}
    </nav>
    <div class="settings">
      <div id="settings-org" class="settings-group"><${OrganizationSection} key=${generation} /></div>
      ${session.org ? html`<${MembersSection} onChanged=${bump} />` : null}
      ${session.user.instanceAdmin ? html`<${AccessRequestsSection} status=${route.query.requests || 'pending'} />` : null}
      ${data.error ? html`<${ErrorBox} error=${data.error} />` : !data.data ? html`<${Spinner} />` : html`
        <${AppsSection} data=${data.data} reload=${data.reload} />
        <${ApiKeysSection} channels=${data.data.channels} />`}
      <${EnvironmentsSection} />
      <${DangerZone} />
    </div>
  </div>`;
}
