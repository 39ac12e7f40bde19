// The organization's apps and their channels, for pickers: [{id, name, appId, appName}].
import { api } from './api.js';

export async function loadChannels() {
  const apps = await api.get('/apps');
  const full = await Promise.all(apps.map((a) => api.get(`/apps/${a.id}`)));
  const out = [];
  for (const app of full) {
    for (const ch of app.channels || []) out.push({ id: ch.id, name: ch.name, appId: app.id, appName: app.name });
  }
  return { apps: full, channels: out };
}

// <optgroup>-ready: [{app, channels}] in app order.
export function groupByApp(channels) {
  const groups = new Map();
  for (const c of channels) {
    if (!groups.has(c.appId)) groups.set(c.appId, { appName: c.appName, channels: [] });
    groups.get(c.appId).channels.push(c);
  }
  return [...groups.values()];
}
