/**
 * html: escaping text for HTML, shared by the pages and emails svc writes (@svc/auth's email
 * templates, @svc/rest's API reference page).
 */

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes text for HTML content and for quoted attribute values (attributes must be quoted, so
 * `=` and backticks need nothing).
 */
export function escapeHtml(value: string): string {
  return String(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}
