// Who is signed in and which organization the console shows: loaded once after sign-in,
// shared by every view through a context.
import { api, setTenant } from './api.js';
import { createContext, useContext } from './lib.js';

export const SessionContext = createContext(null);
export const useSession = () => useContext(SessionContext);

// {user: whoami, orgs: [{id, name, slug, role}]}
export async function loadSession() {
  const [who, memberships] = await Promise.all([api.get('/auth/whoami'), api.get('/users/me/organizations')]);
  const orgs = memberships.map((m) => ({ id: m.organizationId, name: m.organization.name, slug: m.organization.slug, role: m.role }));
  return { user: who, me: await api.get('/users/me').catch(() => null), orgs };
}

// The organization named by ?org= when the user belongs to it, else the session's own.
export function chooseOrg(session, requested) {
  const wanted = session.orgs.find((o) => String(o.id) === String(requested));
  const org = wanted || session.orgs.find((o) => String(o.id) === String(session.user.orgId)) || session.orgs[0] || null;
  setTenant(org ? org.id : null);
  return org;
}
