import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentApiSuite, readManifest } from '../test/agent-api-suite.js';

const fixture = resolve(dirname(fileURLToPath(import.meta.url)), '../../core/test/fixtures/qwen/0.24.4');

agentApiSuite(
  {
    agent: { id: 'qwen', label: 'Qwen Code', resume: ['qwen', '--resume'] },
    fixture,
    home: 'qwen-home',
    kinds: {
      write_file: 'write',
      read_file: 'read',
      glob: 'glob',
      grep_search: 'grep',
      edit: 'edit',
      run_shell_command: 'bash',
      mcp__rec__echo: 'mcp',
    },
  },
  readManifest(fixture),
);
