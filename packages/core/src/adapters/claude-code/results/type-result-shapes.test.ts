/** Typed results, continued (type-result.test.ts has the seed examples): errors, images and result shapes. */
import { describe, expect, it } from 'vitest';
import { typeOf } from '../../../../test/type-claude-result.js';
import type { ResultContent } from '../../../model/content.js';
import { canonicalToolName } from '../tool-names.js';
import { kindOfTool } from './tools/index.js';

describe('errors', () => {
  const classify = (name: string, content: string, toolUseResult?: unknown) =>
    typeOf(name, content, { isError: true, toolUseResult }).error;

  it('Bash exit codes, with and without the "Exit code" line', () => {
    expect(classify('Bash', 'Exit code 3\nto-stderr\n\nto-stdout')).toEqual({
      category: 'exit-code',
      severity: 'error',
      exitCode: 3,
      message: 'Exit code 3\nto-stderr\n\nto-stdout',
    });
    // 1.0.128: `false` yields only "Error"; the code is not printed.
    expect(classify('Bash', 'Error', 'Error: Error')).toEqual({
      category: 'exit-code',
      severity: 'error',
      message: 'Error',
    });
  });

  it('timeouts, interrupts, permissions, hooks, unknown tools, validation', () => {
    expect(classify('Bash', 'Exit code 143\nCommand timed out after 1s')).toMatchObject({
      category: 'timeout',
      exitCode: 143,
    });
    expect(classify('Bash', 'Command timed out after 1s')?.category).toBe('timeout');
    expect(classify('Bash', 'partial\n<error>Command was aborted before completion</error>')?.category).toBe(
      'interrupted',
    );
    expect(classify('Bash', 'This command requires approval')?.category).toBe('permission-denied');
    expect(
      classify('Write', "Claude requested permissions to write to /tmp/x, but you haven't granted it yet.")?.category,
    ).toBe('permission-denied');
    expect(classify('Write', 'PreToolUse:Write hook error: [cmd]: blocked')?.category).toBe('hook-blocked');
    expect(classify('Write', 'Write operation blocked by hook:\n- [cmd]: blocked')?.category).toBe('hook-blocked');
    expect(classify('Foo', '<tool_use_error>Error: No such tool available: Foo</tool_use_error>')).toEqual({
      category: 'unknown-tool',
      severity: 'error',
      message: 'Error: No such tool available: Foo',
    });
    expect(classify('Read', '<tool_use_error>InputValidationError: Read failed</tool_use_error>')?.category).toBe(
      'validation',
    );
    expect(
      classify('Edit', '<tool_use_error>String to replace not found in file.\nString: x</tool_use_error>')?.category,
    ).toBe('string-not-found');
    expect(classify('Read', '<tool_use_error>File does not exist.</tool_use_error>')?.category).toBe('file-not-found');
    expect(classify('WebFetch', 'Request failed with status code 404')?.category).toBe('network');
    expect(classify('mcp__rec__fail', 'fail tool failed: scripted failure')?.category).toBe('other');
    expect(classify('mcp__rec__echo', 'MCP error -32000: Connection closed')?.category).toBe('api-error');
    expect(classify('ExitPlanMode', 'Exit plan mode?')).toMatchObject({
      category: 'user-rejected',
      severity: 'expected',
    });
    expect(classify('Read', 'something entirely new')?.category).toBe('other');
    // A Read too large, by bytes or by tokens (../shared/wild), is one kind of failure.
    for (const message of [
      'File content (28795 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters to read specific portions of the file, or use the GrepTool to search for specific content.',
      'File content (762.6KB) exceeds maximum allowed size (256KB). Please use offset and limit parameters to read specific portions of the file, or use the GrepTool to search for specific content.',
    ]) {
      expect(classify('Read', message)?.category, message).toBe('validation');
    }
    expect(classify('Read', '<tool_use_error>some new precondition</tool_use_error>')?.category).toBe('validation');
  });

  it('the message falls back to the toolUseResult string when the content is empty', () => {
    const out = typeOf('Bash', '', { isError: true, toolUseResult: 'Error: Exit code 1\nboom' });
    expect(out.error).toMatchObject({ category: 'exit-code', exitCode: 1, message: 'Exit code 1\nboom' });
  });

  it('a failed MCP call keeps its server and tool (typed mcp, with the error); the tool failing is `other`', () => {
    const content: ResultContent = [{ kind: 'text', text: 'fail tool failed: scripted failure' }];
    const out = typeOf('mcp__rec__fail', content, { isError: true, toolUseResult: 'Error: fail tool failed' });
    expect(out.typed).toEqual({
      kind: 'mcp',
      tool: 'mcp__rec__fail',
      data: {
        server: 'rec',
        tool: 'fail',
        text: 'fail tool failed: scripted failure',
        blocks: [{ type: 'text', text: 'fail tool failed: scripted failure' }],
      },
    });
    expect(out.error).toEqual({ category: 'other', severity: 'error', message: 'fail tool failed: scripted failure' });
  });
});

describe('images', () => {
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGP4z8DwHwyIZwEA2Kt/gVlx1bsAAAAASUVORK5CYII=';

  it('image blocks in the content', () => {
    const out = typeOf('mcp__rec__image', [
      { kind: 'text', text: 'Here is an image.' },
      { kind: 'image', mediaType: 'image/png', data: png },
    ]);
    expect(out.images).toEqual([{ kind: 'image', mediaType: 'image/png', data: png }]);
    expect(out.typed).toEqual({
      kind: 'mcp',
      tool: 'mcp__rec__image',
      data: {
        server: 'rec',
        tool: 'image',
        text: 'Here is an image.',
        blocks: [
          { type: 'text', text: 'Here is an image.' },
          { type: 'image', mediaType: 'image/png' },
        ],
      },
    });
  });

  it('a string holding JSON image blocks (seed 003)', () => {
    const content = JSON.stringify([
      { type: 'image', source: { type: 'base64', data: png, media_type: 'image/jpeg' } },
    ]);
    const out = typeOf('Read', content, { input: { file_path: '/p/a.jpg' } });
    expect(out.images).toEqual([{ kind: 'image', mediaType: 'image/jpeg', data: png }]);
    expect(out.typed).toEqual({
      kind: 'read',
      tool: 'Read',
      data: { variant: 'image', filePath: '/p/a.jpg', mediaType: 'image/jpeg' },
    });
  });

  it('Read image output, deduplicated against the content block', () => {
    const out = typeOf('Read', [{ kind: 'image', mediaType: 'image/png', data: png }], {
      input: { file_path: '/p/a.png' },
      toolUseResult: { type: 'image', file: { base64: png, type: 'image/png', originalSize: 465 } },
    });
    expect(out.images).toHaveLength(1);
    expect(out.typed).toEqual({
      kind: 'read',
      tool: 'Read',
      data: { variant: 'image', filePath: '/p/a.png', mediaType: 'image/png', originalSize: 465 },
    });
  });

  it('Bash image stdout (data URL)', () => {
    const out = typeOf('Bash', [{ kind: 'image', mediaType: 'image/png', data: png }], {
      toolUseResult: { stdout: `data:image/png;base64,${png}`, stderr: '', interrupted: false, isImage: true },
    });
    expect(out.images).toEqual([{ kind: 'image', mediaType: 'image/png', data: png }]);
  });
});

describe('shapes', () => {
  it('Read text from the content in both line-number formats', () => {
    const arrow = typeOf('Read', '     3→a\n     4→b\n\n<system-reminder>x</system-reminder>\n', {
      input: { file_path: '/f' },
    });
    const tab = typeOf('Read', '3\ta\n4\tb', { input: { file_path: '/f' } });
    const expected = {
      kind: 'read',
      tool: 'Read',
      data: { variant: 'text', filePath: '/f', content: 'a\nb', startLine: 3, numLines: 2 },
    };
    expect(arrow.typed).toEqual(expected);
    expect(tab.typed).toEqual(expected);
  });

  it('Agent text from the content: the 2.1.x agentId and usage trailer become fields', () => {
    const out = typeOf(
      'Agent',
      [
        { kind: 'text', text: 'The report.' },
        {
          kind: 'text',
          text: "agentId: a1b2c3 (use SendMessage with to: 'a1b2c3' to continue this agent)\n<usage>total_tokens: 1200\ntool_uses: 3\nduration_ms: 4500</usage>",
        },
      ],
      { input: { subagent_type: 'Explore', prompt: 'Look' } },
    );
    expect(out.typed).toEqual({
      kind: 'agent',
      tool: 'Agent',
      data: {
        status: 'completed',
        agentId: 'a1b2c3',
        agentType: 'Explore',
        prompt: 'Look',
        text: 'The report.',
        totalTokens: 1200,
        totalToolUseCount: 3,
        totalDurationMs: 4500,
      },
    });
  });

  it('Agent from toolUseResult drops the harness note block', () => {
    const out = typeOf('Agent', [{ kind: 'text', text: 'x' }], {
      toolUseResult: {
        status: 'completed',
        agentId: 'ab',
        content: [
          { type: 'text', text: '<tools-used-before-summary>Bash, Read</tools-used-before-summary>\n' },
          { type: 'text', text: 'Report.' },
        ],
        totalTokens: 10,
      },
    });
    expect(out.typed).toMatchObject({ kind: 'agent', data: { status: 'completed', agentId: 'ab', text: 'Report.' } });
  });

  it('a detached call ({detachedToolCall:true}) is typed from its content', () => {
    const out = typeOf('WebFetch', 'page text', {
      input: { url: 'https://e.com' },
      toolUseResult: { detachedToolCall: true },
    });
    expect(out.typed).toEqual({
      kind: 'web-fetch',
      tool: 'WebFetch',
      data: { url: 'https://e.com', result: 'page text' },
    });
  });

  it('Edit from toolUseResult: patch counts', () => {
    const out = typeOf('Edit', 'The file /f has been updated successfully.', {
      toolUseResult: {
        filePath: '/f',
        oldString: 'a',
        newString: 'b\nc',
        originalFile: 'a\n',
        structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 2, lines: ['-a', '+b', '+c'] }],
        userModified: false,
        replaceAll: false,
        somethingNew: 1,
      },
    });
    expect(out.typed).toMatchObject({ kind: 'edit', data: { linesAdded: 2, linesRemoved: 1, replaceAll: false } });
    expect(JSON.stringify(out.typed)).not.toContain('somethingNew');
  });

  it('a toolUseResult that does not fit the tool falls back to unknown, raw data kept', () => {
    const out = typeOf('Glob', 'x', { toolUseResult: { nothing: 'here' } });
    expect(out.typed).toEqual({ kind: 'unknown', tool: 'Glob', content: 'x', toolUseResult: { nothing: 'here' } });
  });

  it('an unknown tool is unknown, never dropped', () => {
    const out = typeOf('Frobnicate', [{ kind: 'text', text: 'done' }], { toolUseResult: [1, 2] });
    expect(out.typed).toEqual({
      kind: 'unknown',
      tool: 'Frobnicate',
      content: [{ kind: 'text', text: 'done' }],
      toolUseResult: [1, 2],
    });
  });

  it('renamed tools share one kind', () => {
    const pairs: [string, string][] = [
      ['Task', 'Agent'],
      ['BashOutput', 'TaskOutput'],
      ['KillShell', 'TaskStop'],
      ['KillBash', 'TaskStop'],
      ['SlashCommand', 'Skill'],
      ['exit_plan_mode', 'ExitPlanMode'],
      ['MCPSearch', 'ToolSearch'],
    ];
    for (const [old, current] of pairs) {
      const kind = kindOfTool(canonicalToolName(old));
      expect(kind).toBeDefined();
      expect(kind).toBe(kindOfTool(current));
    }
    expect(kindOfTool('Agent')).toBe('agent');
    expect(kindOfTool('TaskStop')).toBe('task-stop');
    expect(kindOfTool('mcp__srv__tool')).toBe('mcp');
    expect(kindOfTool('NoSuchTool')).toBeUndefined();
  });
});
