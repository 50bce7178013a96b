// Light and dark themes: follows the OS until the user picks one, then remembers it.
// (Only this preference is kept in the webview's storage; never data or secrets.)

const KEY = 'aas-browser.theme';

export function initTheme(button) {
  const saved = localStorage.getItem(KEY);
  if (saved === 'light' || saved === 'dark') document.documentElement.dataset.theme = saved;
  button.addEventListener('click', () => {
    const dark = document.documentElement.dataset.theme
      ? document.documentElement.dataset.theme === 'dark'
      : matchMedia('(prefers-color-scheme: dark)').matches;
    const next = dark ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    localStorage.setItem(KEY, next);
  });
}
