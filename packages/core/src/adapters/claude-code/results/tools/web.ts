/** Parsers of the web tools: WebFetch, WebSearch. */
import { isRecord, num, str } from '../../../../internal/guards.js';
import { tryJson } from '../text.js';
import { type DataParser, rec } from './shared.js';

export const webFetch: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    if (tur.detachedToolCall === true) return undefined;
    return {
      url: str(tur.url) ?? str(ctx.input.url),
      code: num(tur.code),
      codeText: str(tur.codeText),
      bytes: num(tur.bytes),
      durationMs: num(tur.durationMs),
      result: str(tur.result) ?? ctx.text,
    };
  }
  return { url: str(ctx.input.url), result: ctx.text };
};

function linkList(value: unknown): { title: string; url: string }[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((l) => ({ title: str(l.title) ?? '', url: str(l.url) ?? '' }));
}

export const webSearch: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    if (!Array.isArray(tur.results)) return undefined;
    const links: { title: string; url: string }[] = [];
    const texts: string[] = [];
    for (const item of tur.results) {
      if (typeof item === 'string') texts.push(item);
      else if (isRecord(item)) links.push(...linkList(item.content));
    }
    return {
      query: str(tur.query) ?? str(ctx.input.query) ?? '',
      links,
      texts,
      durationSeconds: num(tur.durationSeconds),
      searchCount: num(tur.searchCount),
    };
  }
  if (typeof ctx.content !== 'string' && ctx.content.some((b) => b.kind === 'search-result')) {
    const links: { title: string; url: string }[] = [];
    const texts: string[] = [];
    for (const block of ctx.content) {
      if (block.kind === 'search-result') {
        links.push({ title: block.title, url: block.source });
        if (block.text !== '') texts.push(block.text);
      } else if (block.kind === 'text' && block.text.trim() !== '') texts.push(block.text);
    }
    return { query: str(ctx.input.query) ?? '', links, texts };
  }
  const text = ctx.text;
  const header = /^Web search results for query: "([\s\S]*?)"\n/.exec(text);
  if (!header) return undefined;
  const links: { title: string; url: string }[] = [];
  const texts: string[] = [];
  for (const part of text.slice(header[0].length).split(/\n\n+/)) {
    const trimmed = part.trim();
    if (trimmed === '' || trimmed.startsWith('REMINDER:')) continue;
    if (trimmed.startsWith('Links: ')) links.push(...linkList(tryJson(trimmed.slice('Links: '.length))));
    else texts.push(trimmed);
  }
  return { query: header[1] ?? '', links, texts };
};
