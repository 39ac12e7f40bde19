import { html } from '../lib.js';

export function AlertsView() {
  return html`<div class="page"><header class="page-head"><h1>Alerts</h1></header></div>`;
}
