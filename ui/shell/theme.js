// Light and dark themes: follows the OS until the user picks one, then remembers it in
// the preferences (kept by the Rust side; nothing goes to the webview's storage).

import * as api from '../lib/api.js';

/** Shows `theme` ('light' or 'dark'); anything else follows the OS. */
export function applyTheme(theme, root = document.documentElement) {
  if (theme === 'light' || theme === 'dark') root.dataset.theme = theme;
  else delete root.dataset.theme;
}

/** The theme a click switches to from `current` (null: following the OS, dark or not). */
export function nextTheme(current, osIsDark) {
  const dark = current ? current === 'dark' : osIsDark;
  return dark ? 'light' : 'dark';
}

/**
 * Wires the theme button: a click switches theme, in `prefs` and on the Rust side.
 * `onError(error)` hears of a choice that could not be stored (it is still shown).
 */
export function initTheme(button, prefs, onError = () => {}) {
  button.addEventListener('click', async () => {
    const next = nextTheme(document.documentElement.dataset.theme ?? null,
      matchMedia('(prefers-color-scheme: dark)').matches);
    applyTheme(next);
    prefs.theme = next;
    try {
      await api.setPreference({ theme: next });
    } catch (e) {
      onError(e);
    }
  });
}
