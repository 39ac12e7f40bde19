// Sign in or create an account. The address stays as it was, so a deep link opened
// while signed out shows its page right after signing in.
import { ApiError, login, register } from '../api.js';
import { html, useEffect, useRef, useState } from '../lib.js';
import { ErrorBox } from '../ui.js';

export function LoginView() {
  const [mode, setMode] = useState('signin');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const [notice, setNotice] = useState('');
  const first = useRef(null);
  useEffect(() => {
    document.title = mode === 'signin' ? 'Sign in · agent-events' : 'Create account · agent-events';
    first.current?.focus();
  }, [mode]);

  const submit = async (e) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    setNotice('');
    try {
      if (mode === 'register') {
        const user = await register({ email: f.get('email'), username: f.get('username'), password: f.get('password') });
        if (user && user.status === 'pending_approval') {
          setNotice('Account created. The instance administrator must approve it before you can sign in.');
          setMode('signin');
          return;
        }
        await login(f.get('username'), f.get('password'));
      } else {
        await login(f.get('login'), f.get('password'));
      }
    } catch (err) {
      setError(err instanceof ApiError ? err : new Error('The daemon could not be reached.'));
    } finally {
      setBusy(false);
    }
  };

  const tab = (key, label) => html`<button type="button" role="tab" id=${`tab-${key}`} aria-selected=${String(mode === key)}
    aria-controls="auth-panel" class=${mode === key ? 'on' : ''} onClick=${() => { setMode(key); setError(null); }}>${label}</button>`;

  return html`<div class="auth">
    <main class="auth-card" id="main">
      <div class="brand auth-brand"><span class="brand-mark" aria-hidden="true"></span>agent-events</div>
      <h1 class="auth-title">${mode === 'signin' ? 'Sign in to the console' : 'Create your account'}</h1>
      <div class="tabs" role="tablist" aria-label="Account">${tab('signin', 'Sign in')}${tab('register', 'Create account')}</div>
      <div id="auth-panel" role="tabpanel" aria-labelledby=${`tab-${mode}`}><form onSubmit=${submit} class="stack">
        ${notice ? html`<p class="notice" role="status">${notice}</p>` : null}
        <${ErrorBox} error=${error} />
        ${mode === 'signin' ? html`
          <div class="field"><label for="login">E-mail or username</label>
            <input id="login" name="login" ref=${first} autocomplete="username" required /></div>
          <div class="field"><label for="password">Password</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required /></div>`
        : html`
          <div class="field"><label for="email">E-mail</label>
            <input id="email" name="email" type="email" ref=${first} autocomplete="email" required /></div>
          <div class="field"><label for="username">Username</label>
            <input id="username" name="username" autocomplete="username" required /></div>
          <div class="field"><label for="new-password">Password</label>
            <input id="new-password" name="password" type="password" autocomplete="new-password" minlength="8" required />
            <p class="hint">At least 8 characters. The first account becomes the instance administrator.</p></div>`}
        <button class="btn btn-primary btn-block" type="submit" disabled=${busy}>${busy ? 'Please wait…' : mode === 'signin' ? 'Sign in' : 'Create account'}</button>
      </form></div>
      <p class="auth-foot">Your session stays in this browser tab's memory and an HttpOnly cookie; no token is stored.</p>
    </main>
  </div>`;
}
