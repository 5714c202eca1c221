import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './CodeBlock';

const safeUrl = (url: string): string => (/^(https?:|mailto:|#)/i.test(url) ? url : '');

/**
 * Markdown rendered safely: raw HTML shown as the text it is (react-markdown makes it text when `skipHtml` is off and
 * no HTML plugin is given: never parsed, never dropped), links limited to http(s)/mailto, no remote images.
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="md">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
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
