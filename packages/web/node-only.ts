import type { Plugin } from 'vite';

/** What an agent's descriptor loads by `import()` (core/src/agents/descriptor.ts): its homes and its parser. */
const LOADERS = /^\.\/(?:homes|adapter)\.js$/;
/** An agent's descriptor, in core's sources or its build. */
const DESCRIPTOR = /[\\/]adapters[\\/][^\\/]+[\\/]agent\.[jt]s$/;
const STUB = '\0agentdash:node-only';

/**
 * Keeps the agents' homes and parsers out of the browser builds. The dashboard imports the agents' descriptors
 * (`@agentdash/core/model`: names, badges) but never calls their loaders: those read the disk with Node's modules.
 * Followed, they put every parser into the dashboard's folder as chunks never loaded (and into the HTML export's one
 * script, which every exported file carries) and one warning per Node module at each build. Each loader is given a
 * module that fails when loaded, with this message, instead.
 */
export function nodeOnlyLoaders(): Plugin {
  return {
    name: 'agentdash:node-only-loaders',
    enforce: 'pre',
    resolveId(source, importer) {
      return importer !== undefined && LOADERS.test(source) && DESCRIPTOR.test(importer) ? STUB : null;
    },
    load(id) {
      if (id !== STUB) return null;
      return "throw new Error('agentdash: an agent\\'s homes and parser load in Node.js only, never in the dashboard');";
    },
  };
}
