import { html } from '../lib.js';

export function ModerationView() {
  return html`<div class="page"><header class="page-head"><h1>Moderation</h1></header></div>`;
}
