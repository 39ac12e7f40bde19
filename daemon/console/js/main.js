// The console's entry point: theme, sign-in state, the shell (navigation, organization,
// theme and account) and the view the URL names.
import { onAuthChange, refresh, logout, signedIn } from './api.js';
import { html, render, useEffect, useState } from './lib.js';
import { href, Link, navigate, useLocation } from './router.js';
import { chooseOrg, loadSession, SessionContext } from './session.js';
import { stylesheet } from './style.js';
import { applyTheme, setTheme, themeChoice } from './theme.js';
import { Empty, Icon, Spinner } from './ui.js';
import { LoginView } from './views/login.js';

// Each screen's module, and what only it imports (uPlot, for the analytics charts; the
// conversation styles for traces, sessions and users), loads
// when the screen is first shown: opening the console costs the shell and one screen, not
// all ten. Loaded once, a screen switches instantly afterwards.
const SCREENS = {
  live: () => import('./views/live.js').then((m) => m.LiveView),
  traces: () => withContent(import('./views/traces.js')).then((m) => m.TracesView),
  trace: () => withContent(import('./views/trace.js')).then((m) => m.TraceView),
  sessions: () => withContent(import('./views/sessions.js')).then((m) => m.SessionsView),
  session: () => withContent(import('./views/session.js')).then((m) => m.SessionView),
  users: () => withContent(import('./views/users.js')).then((m) => m.UsersView),
  analytics: () => import('./views/analytics.js').then((m) => m.AnalyticsView),
  settings: () => import('./views/settings.js').then((m) => m.SettingsView),
  delivery: () => import('./views/delivery.js').then((m) => m.DeliveryView),
  moderation: () => import('./views/moderation.js').then((m) => m.ModerationView),
  spend: () => import('./views/spend.js').then((m) => m.SpendView),
  alerts: () => import('./views/alerts.js').then((m) => m.AlertsView),
  audit: () => import('./views/audit.js').then((m) => m.AuditView),
};
const loadedScreens = new Map();
// The screens about traces, conversations and users bring their own stylesheet.
const withContent = (module) => Promise.all([module, stylesheet('content.css')]).then(([m]) => m);

function Screen({ name, route }) {
  const [View, setView] = useState(() => loadedScreens.get(name));
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (View) return undefined;
    let live = true;
    SCREENS[name]().then(
      (view) => {
        loadedScreens.set(name, view);
        if (live) setView(() => view);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [name]);
  // A module that no longer loads is most often a console upgraded under an open page
  // (its files live under a new build id): a reload fetches the new ones.
  if (failed)
    return html`<div class="page"><h1>This screen did not load</h1>
      <p>The console may have been upgraded since this page opened. <button type="button" class="btn btn-sm"
        onClick=${() => window.location.reload()}>Reload</button></p></div>`;
  if (!View) return html`<div class="page"><${Spinner} /></div>`;
  return html`<${View} route=${route} />`;
}

applyTheme();

const NAV = [
  { name: 'live', path: '/live', label: 'Live tail', icon: 'live' },
  { name: 'traces', path: '/traces', label: 'Traces', icon: 'traces' },
  { name: 'sessions', path: '/sessions', label: 'Sessions', icon: 'sessions' },
  { name: 'users', path: '/users', label: 'End users', icon: 'users' },
  { name: 'analytics', path: '/analytics', label: 'Analytics', icon: 'analytics' },
  { name: 'delivery', path: '/delivery', label: 'Delivery', icon: 'delivery' },
  { name: 'moderation', path: '/moderation', label: 'Moderation', icon: 'funnel' },
  { name: 'spend', path: '/spend', label: 'Spend', icon: 'spend' },
  { name: 'alerts', path: '/alerts', label: 'Alerts', icon: 'bell' },
  { name: 'audit', path: '/audit', label: 'Audit log', icon: 'audit' },
  { name: 'settings', path: '/settings', label: 'Settings', icon: 'settings' },
];

// Page titles: the navigation's labels, and one for a single trace.
const TITLES = { ...Object.fromEntries(NAV.map((n) => [n.name, n.label])), trace: 'Trace', session: 'Session' };

function ThemeSwitch() {
  const [choice, setChoice] = useState(themeChoice());
  const options = [['system', 'auto', 'System theme'], ['light', 'sun', 'Light theme'], ['dark', 'moon', 'Dark theme']];
  return html`<div class="seg" role="group" aria-label="Theme">
    ${options.map(([value, icon, label]) => html`<button type="button" class=${choice === value ? 'on' : ''} aria-pressed=${String(choice === value)}
      title=${label} aria-label=${label} onClick=${() => { setTheme(value); setChoice(value); }}><${Icon} name=${icon} size=${14} /></button>`)}
  </div>`;
}

function OrgSwitch({ session, org, route }) {
  if (!session.orgs.length) return null;
  const change = (id) => {
    // The same screen in the other organization; ids in the URL belong to the old one.
    const path = route.name === 'trace' ? '/traces' : route.name === 'session' ? '/sessions' : `/${route.name === 'home' ? 'live' : route.name}`;
    navigate(href(path, { org: id }));
  };
  return html`<label class="org-switch" for="org-switch"><span class="sr-only">Organization</span>
    <select id="org-switch" value=${org?.id} onChange=${(e) => change(e.currentTarget.value)}>
      ${session.orgs.map((o) => html`<option value=${o.id} selected=${o.id === org?.id}>${o.name}</option>`)}
    </select></label>`;
}

// With no organization (the last one deleted, or left), every screen but Settings could only
// show the API's "no active organization": say it once, and lead to creating one there.
function NoOrganization({ title }) {
  return html`<div class="page" data-testid="no-organization-screen"><h1>${title}</h1>
    <${Empty} title="You belong to no organization">
      <p>Events, traces, delivery, rules and the audit log all live in an organization.</p>
      <p><${Link} to=${href('/settings')} class="btn btn-primary">Create an organization</${Link}></p>
      <p>Or ask an admin of an existing one to invite you.</p>
    </${Empty}></div>`;
}

function Shell({ session, route }) {
  const org = chooseOrg(session, route.query.org);
  // Below 768 px the navigation sits behind a menu button; any navigation closes it.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [route.name, route.params.id]);
  useEffect(() => {
    if (!menuOpen) return undefined;
    const onKey = (e) => {
      if (e.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  useEffect(() => {
    if (org && String(route.query.org) !== String(org.id)) {
      const q = new URLSearchParams(window.location.search);
      q.set('org', org.id);
      navigate(`${window.location.pathname}?${q}`, { replace: true });
    }
  }, [org?.id, route.query.org]);
  useEffect(() => {
    document.title = `${TITLES[route.name] || 'Console'} · ${org ? org.name : ''} · agent-events`;
  }, [route.name, org?.id]);
  useEffect(() => {
    // "/" focuses the screen's first filter, as in most consoles.
    const onKey = (e) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) return;
      const input = document.querySelector('main input[type=search], main input');
      if (input) {
        e.preventDefault();
        input.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const redirect = route.name === 'home' || route.name === 'login';
  useEffect(() => {
    if (redirect) navigate(href('/live'), { replace: true });
  }, [redirect]);
  if (redirect) return null;
  const orgKey = org ? org.id : 'none';
  let view;
  if (SCREENS[route.name] && !org && route.name !== 'settings') {
    view = html`<${NoOrganization} title=${TITLES[route.name] || 'Console'} />`;
  } else if (SCREENS[route.name]) {
    // Keyed by organization (and trace): another one is a fresh screen, not stale state.
    const key = route.name === 'trace' || route.name === 'session' ? `${orgKey}-${route.params.id}` : orgKey;
    view = html`<${Screen} key=${`${route.name}-${key}`} name=${route.name} route=${route} />`;
  } else {
    view = html`<div class="page"><h1>Not found</h1><p>No console page at this address. <${Link} to=${href('/live')}>Go to the live tail</${Link}>.</p></div>`;
  }
  const active = route.name === 'trace' ? 'traces' : route.name === 'session' ? 'sessions' : route.name;
  const who = session.me ? session.me.username || session.me.email : session.user.email;
  return html`<${SessionContext.Provider} value=${{ ...session, org }}>
    <div class="shell">
      <a class="skip" href="#main">Skip to content</a>
      <header class="topbar">
        <button type="button" class="btn btn-icon" aria-label="Menu" aria-expanded=${String(menuOpen)} aria-controls="console-nav"
          data-testid="menu-button" onClick=${() => setMenuOpen(!menuOpen)}><${Icon} name=${menuOpen ? 'close' : 'menu'} /></button>
        <div class="brand"><span class="brand-mark" aria-hidden="true"></span>agent-events</div>
        <span class="topbar-title">${TITLES[route.name] || ''}</span>
      </header>
      <nav class=${`side${menuOpen ? ' open' : ''}`} id="console-nav" aria-label="Console">
        <div class="brand"><span class="brand-mark" aria-hidden="true"></span>agent-events</div>
        <${OrgSwitch} session=${session} org=${org} route=${route} />
        <ul class="nav">
          ${NAV.map((n) => html`<li><${Link} to=${href(n.path)} class=${active === n.name ? 'active' : ''}
            aria-current=${active === n.name ? 'page' : undefined}><${Icon} name=${n.icon} />${n.label}</${Link}></li>`)}
        </ul>
        <div class="side-foot">
          <${ThemeSwitch} />
          <div class="who" title=${session.user.email}>${who}</div>
          <button type="button" class="btn btn-ghost btn-sm" onClick=${() => logout()}><${Icon} name="logout" size=${14} />Sign out</button>
        </div>
      </nav>
      ${menuOpen ? html`<div class="scrim" aria-hidden="true" onClick=${() => setMenuOpen(false)}></div>` : null}
      <main id="main" tabindex="-1">${view}</main>
    </div>
  </${SessionContext.Provider}>`;
}

function App() {
  const route = useLocation();
  const [auth, setAuth] = useState(signedIn() ? 'in' : 'unknown');
  const [session, setSession] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => onAuthChange((inNow) => setAuth(inNow ? 'in' : 'out')), []);
  useEffect(() => {
    if (auth === 'unknown') refresh().then((ok) => setAuth(ok ? 'in' : 'out'));
  }, []);
  useEffect(() => {
    if (auth !== 'in') {
      setSession(null);
      return;
    }
    loadSession().then(setSession, setError);
  }, [auth]);
  if (auth === 'unknown' || (auth === 'in' && !session && !error)) {
    return html`<div class="boot"><${Spinner} label="Starting the console" /></div>`;
  }
  if (auth === 'out') return html`<${LoginView} route=${route} />`;
  if (error) return html`<div class="boot"><p class="error-box" role="alert">${error.message}</p></div>`;
  return html`<${Shell} session=${session} route=${route} />`;
}

render(html`<${App} />`, document.getElementById('app'));
