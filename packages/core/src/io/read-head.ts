import { open } from 'node:fs/promises';

/**
 * The start of a file as text: at most `maxBytes`, read in chunks of up to 64 KiB, stopping after the first line
 * when `firstLine` is set (the line is returned without its newline). Undefined when the file cannot be opened or
 * read, or is empty. Never throws.
 */
export async function readHead(
  path: string,
  maxBytes: number,
  { firstLine = false }: { readonly firstLine?: boolean } = {},
): Promise<string | undefined> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const buffer = Buffer.alloc(Math.min(maxBytes, 64 * 1024));
    const parts: Buffer[] = [];
    for (let position = 0; position < maxBytes; ) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, maxBytes - position), position);
      if (bytesRead === 0) break;
      const chunk = Buffer.from(buffer.subarray(0, bytesRead));
      position += bytesRead;
      const newline = firstLine ? chunk.indexOf(10) : -1;
      parts.push(newline >= 0 ? chunk.subarray(0, newline) : chunk);
      if (newline >= 0) break;
    }
    const text = Buffer.concat(parts).toString('utf8');
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}
