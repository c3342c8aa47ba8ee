import type { HtmlTagDescriptor, Plugin } from 'vite';

/**
 * Hints in index.html for the scripts of the two first screens (login for a visitor, home for a
 * participant), so the browser fetches them alongside the main script instead of one round trip
 * after it has run (decision 015). Their styles are preloaded, not applied: the page's chunk
 * applies them when it loads, from the cache.
 */
export function firstScreenHints(pages: string[]): Plugin {
  return {
    name: 'rewards-first-screen-hints',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return [];
        const tags: HtmlTagDescriptor[] = [];
        // What the main chunk brings is in the page already.
        const main = Object.values(bundle).find((chunk) => chunk.type === 'chunk' && chunk.isEntry);
        const seen = new Set<string>(
          main?.type === 'chunk' ? [main.fileName, ...main.imports, ...(main.viteMetadata?.importedCss ?? [])] : [],
        );
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !chunk.isDynamicEntry) continue;
          if (!pages.some((page) => chunk.facadeModuleId?.endsWith(page))) continue;
          for (const file of [chunk.fileName, ...chunk.imports]) {
            const entry = bundle[file];
            if (seen.has(file) || !entry) continue;
            // TanStack Query's chunk is home's (its reads and writes) but /login's weight if hinted:
            // home fetches it when its page's script asks for it, as before decision 090.
            if (entry.type === 'chunk' && entry.moduleIds.some((id) => id.includes('/@tanstack/'))) continue;
            seen.add(file);
            tags.push({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' });
          }
          for (const css of chunk.viteMetadata?.importedCss ?? []) {
            if (seen.has(css)) continue;
            seen.add(css);
            tags.push({ tag: 'link', attrs: { rel: 'preload', as: 'style', crossorigin: true, href: `/${css}` }, injectTo: 'head' });
          }
        }
        return tags;
      },
    },
  };
}
