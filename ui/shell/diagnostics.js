// Help → Copy diagnostics: puts what a bug report needs on the clipboard (the app's
// version and platform, the profiles' addresses, the last warnings and errors; never
// a secret, the Rust side leaves them out) and says whether it worked.

import * as api from '../lib/api.js';

export function initDiagnostics(button, say) {
  button.addEventListener('click', async () => {
    try {
      await api.copyDiagnostics();
      say('Diagnostics copied: paste them into your bug report (they hold no secret).', 'info');
    } catch (e) {
      say(`Copy diagnostics failed: ${e.message}`);
    }
  });
}
