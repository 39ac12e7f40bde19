// Light, dark, or the system's choice. The choice (not a credential) is kept in
// localStorage; the page follows prefers-color-scheme until the user picks one.
const KEY = 'aev-theme';
const listeners = new Set();

export function themeChoice() {
  try {
    return localStorage.getItem(KEY) || 'system';
  } catch {
    return 'system';
  }
}

const media = window.matchMedia('(prefers-color-scheme: dark)');
export const effectiveTheme = (choice = themeChoice()) => (choice === 'system' ? (media.matches ? 'dark' : 'light') : choice);

export function applyTheme(choice = themeChoice()) {
  document.documentElement.dataset.theme = effectiveTheme(choice);
  for (const fn of listeners) fn(effectiveTheme(choice));
}

export function setTheme(choice) {
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // storage refused: the choice lasts for this page only
  }
  applyTheme(choice);
}

export function onThemeChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

media.addEventListener('change', () => applyTheme());
