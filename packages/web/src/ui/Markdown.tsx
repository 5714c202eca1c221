import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './CodeBlock';

const safeUrl = (url: string): string => (/^(https?:|mailto:|#)/i.test(url) ? url : '');

/** The part of a Markdown syntax tree this plugin looks at. */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/**
 * Raw HTML in the text (`<b>`, `<script>…`, a tool's HTML output) becomes plain text: shown as it was written,
 * escaped like any other text, never parsed as HTML and never dropped (a transcript viewer shows what the log holds).
 */
function htmlAsText() {
  const walk = (node: MdNode): void => {
    for (const child of node.children ?? []) {
      if (child.type === 'html') child.type = 'text';
      else walk(child);
    }
  };
  return (tree: MdNode) => walk(tree);
}

/** Markdown rendered safely: raw HTML shown as text, links limited to http(s)/mailto, no remote images. */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="md">
      <ReactMarkdown
        remarkPlugins={[remarkGfm, htmlAsText]}
        urlTransform={safeUrl}
        components={{
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noreferrer noopener">
              {children}
            </a>
          ),
          pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
          img: ({ alt }) => <span className="dim">[image{alt ? `: ${alt}` : ''}]</span>,
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
