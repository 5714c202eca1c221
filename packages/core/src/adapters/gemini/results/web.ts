import { str } from '../../../internal/guards.js';
import type { GeminiResultContext } from './context.js';

const SOURCE = /^\[(\d+)\]\s+(.*?)\s+\((https?:\/\/[^\s)]+)\)\s*$/;

/** `google_web_search` → `web-search`: the answer text and its `Sources:` links. */
export function webSearchData(ctx: GeminiResultContext): unknown {
  const body = ctx.text.replace(/^Web search results for .*?:\n\n?/, '');
  const at = body.lastIndexOf('\n\nSources:\n');
  const answer = at >= 0 ? body.slice(0, at) : body;
  const links: { title: string; url: string }[] = [];
  if (at >= 0) {
    for (const line of body.slice(at + 11).split('\n')) {
      const m = SOURCE.exec(line);
      if (m) links.push({ title: m[2] ?? '', url: m[3] ?? '' });
    }
  }
  return { query: str(ctx.args.query) ?? '', links, texts: answer === '' ? [] : [answer] };
}

/** `web_fetch` → `web-fetch`: the URL (an argument, or the first one in the prompt) and the processed answer. */
export function webFetchData(ctx: GeminiResultContext): unknown {
  const url = str(ctx.args.url) ?? /https?:\/\/[^\s"')\]]+/.exec(str(ctx.args.prompt) ?? '')?.[0];
  return { url, result: ctx.text };
}
