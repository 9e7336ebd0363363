/**
 * Whether `text` holds a C0 control character or DEL. Header text with one is garbage or an attack;
 * a tab is ordinary whitespace in header values, so callers choose whether it counts.
 */
export function hasControlCharacter(text: string, { allowTab = false } = {}): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && !(allowTab && code === 0x09)) || code === 0x7f) return true;
  }
  return false;
}
