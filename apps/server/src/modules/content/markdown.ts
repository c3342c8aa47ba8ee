import MarkdownIt from 'markdown-it';

/*
 * Content is Markdown written by the client's staff, shown to every participant: it must never be
 * able to run script. `html: false` writes any raw HTML out as text; markdown-it's default link
 * validation drops javascript:, vbscript:, file: and data: URLs (other than a few image types)
 * from links and images. The web inserts the result as HTML because of these two guarantees.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:/i;

// Links out of the portal open in a new tab without giving that page a handle on this one.
const defaultLinkOpen = markdown.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const href = token?.attrGet('href') ?? '';
  if (token && ABSOLUTE_URL.test(href) && !href.toLowerCase().startsWith('mailto:') && !href.toLowerCase().startsWith('tel:')) {
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer');
  }
  return defaultLinkOpen(tokens, idx, options, env, self);
};

// A wide table scrolls inside its own box on a phone instead of widening the page; the box takes
// focus so that keyboard users can scroll it too.
markdown.renderer.rules.table_open = () => '<div class="md-table" tabindex="0"><table>\n';
markdown.renderer.rules.table_close = () => '</table></div>\n';

/** Safe HTML of a Markdown text (see above). */
export function renderMarkdown(source: string): string {
  return markdown.render(source);
}
