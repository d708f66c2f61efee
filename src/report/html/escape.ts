/**
 * Escapes text for HTML element content and attribute values. Every string
 * that comes from user data (questions, answers, chunk text, ids) goes through
 * this: answers and sources may contain HTML or script.
 *
 * @example
 * escapeHtml('<img src=x onerror="alert(1)">') // '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
