interface FaqSection {
  question: string;
  /** The answer's HTML, a slice of the server-rendered HTML (see ServerHtml). */
  answerHtml: string;
}

/**
 * The FAQs are one Markdown text with a `## question` per entry (decision 011). This splits the
 * server's HTML at each h2: whatever comes before the first is the introduction. DOMParser
 * builds an inert document: nothing in it loads or runs.
 */
export function splitFaqs(html: string): { introHtml: string; sections: FaqSection[] } {
  const body = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html').body;
  let introHtml = '';
  const sections: FaqSection[] = [];
  for (const node of [...body.children]) {
    if (node.tagName === 'H2') {
      sections.push({ question: node.textContent?.trim() ?? '', answerHtml: '' });
      continue;
    }
    const current = sections[sections.length - 1];
    if (current) current.answerHtml += node.outerHTML;
    else introHtml += node.outerHTML;
  }
  return { introHtml, sections };
}
