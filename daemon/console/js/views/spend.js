import { html } from '../lib.js';

export function SpendView() {
  return html`<div class="page"><header class="page-head"><h1>Spend</h1></header></div>`;
}
