// The filter box above the tree: `/` focuses it from anywhere but a text field,
// Escape clears it.

export function initFilterBox(input, onChange) {
  input.addEventListener('input', () => onChange(input.value));
  input.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || input.value === '') return;
    e.preventDefault();
    input.value = '';
    onChange('');
  });
  document.addEventListener('keydown', (e) => {
    if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest?.('input, textarea, select, [contenteditable]')) return;
    e.preventDefault();
    input.focus();
    input.select();
  });
}
