/**
 * The HTML export's entry: the session page over the session embedded in the file (`#agentdash-data`), with no
 * server. Built by `vite.export.config.ts` into one script and one stylesheet that the exporter inlines.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setStaticSource } from './data/client';
import type { StaticSessionData } from './data/static-source';
import { ExportApp } from './ExportApp';
import './styles.css';

const root = document.getElementById('root');
const text = document.getElementById('agentdash-data')?.textContent;
if (root && text) {
  const data = JSON.parse(text) as StaticSessionData;
  setStaticSource(data);
  createRoot(root).render(
    <StrictMode>
      <ExportApp data={data} />
    </StrictMode>,
  );
}
