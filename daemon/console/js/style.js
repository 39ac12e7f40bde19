// Stylesheets a few screens add (content.css: traces, a trace, sessions, end users), each
// loaded once, with the screen's module; resolves when it applies (or failed: the screen
// still works unstyled rather than not at all). A <link> to our own origin: CSP-clean.
const sheets = new Map();

export function stylesheet(name) {
  if (!sheets.has(name)) {
    sheets.set(name, new Promise((resolve) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = new URL(`../${name}`, import.meta.url).href;
      link.onload = () => resolve();
      link.onerror = () => resolve();
      document.head.appendChild(link);
    }));
  }
  return sheets.get(name);
}
