import { Ansi } from '../ui/Ansi';
import { Json } from '../ui/Json';
import { LoggedImage } from './common';

/** Jupyter writes a text as a list of its lines, each with its newline (a traceback's without: `joiner` then). */
const textOf = (value: unknown, joiner = ''): string | undefined =>
  typeof value === 'string'
    ? value
    : Array.isArray(value) && value.every((v) => typeof v === 'string')
      ? value.join(joiner)
      : undefined;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One output of a notebook cell as Claude Code's Read gives it (`{output_type, text?, image?}`, an error's
 * `ename`/`evalue`/`traceback` as Jupyter writes them): its text, its image, or its JSON when it is neither.
 */
export function NotebookOutput({ output }: { output: unknown }) {
  if (!isRecord(output)) return <Json value={output} />;
  const image = isRecord(output.image) ? output.image : undefined;
  if (image && typeof image.image_data === 'string') {
    const mediaType = typeof image.media_type === 'string' ? image.media_type : 'image/png';
    return (
      <LoggedImage img={{ kind: 'image', mediaType, data: image.image_data }} alt="Cell output" testId="cell-image" />
    );
  }
  const error =
    output.output_type === 'error' && typeof output.ename === 'string'
      ? [`${output.ename}: ${typeof output.evalue === 'string' ? output.evalue : ''}`, textOf(output.traceback, '\n')]
          .filter((s) => s !== undefined && s !== '')
          .join('\n')
      : undefined;
  const text = error ?? textOf(output.text);
  if (text === undefined) return <Json value={output} />;
  return (
    <pre className={`cell-output${output.output_type === 'error' ? ' error' : ''}`} data-testid="cell-output">
      <Ansi text={text.replace(/\n$/, '')} />
    </pre>
  );
}
