import { describe, expect, it } from 'vitest';
import { typeOf } from '../../../../test/type-claude-result.js';

const REJECTED =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

describe('seed 000 examples (content strings, no toolUseResult)', () => {
  it('Edit success: the file path from "The file X has been updated"', () => {
    const out = typeOf(
      'Edit',
      "The file /Volumes/jer4TBv3/agent-dash/specs/001-timeline-monitor/plan.md has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n     1→# Implementation Plan: Timeline Monitor\n     2→\n",
    );
    expect(out.typed).toEqual({
      kind: 'edit',
      tool: 'Edit',
      data: { filePath: '/Volumes/jer4TBv3/agent-dash/specs/001-timeline-monitor/plan.md', structuredPatch: [] },
    });
    expect(out.error).toBeUndefined();
  });

  it('Edit and Write error: "File has not been read yet" unwrapped, file-not-read', () => {
    for (const tool of ['Edit', 'Write']) {
      const out = typeOf(
        tool,
        '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
        { isError: true },
      );
      expect(out.typed).toEqual({
        kind: 'error',
        tool,
        message: 'File has not been read yet. Read it first before writing to it.',
      });
      expect(out.error).toEqual({
        category: 'file-not-read',
        severity: 'error',
        message: 'File has not been read yet. Read it first before writing to it.',
      });
    }
  });

  it('Write: created vs updated', () => {
    const created = typeOf(
      'Write',
      'File created successfully at: /Volumes/jer4TBv3/agent-dash/frontend/test-stagger.js',
    );
    expect(created.typed).toMatchObject({
      kind: 'write',
      data: { filePath: '/Volumes/jer4TBv3/agent-dash/frontend/test-stagger.js', operation: 'create' },
    });
    const updated = typeOf(
      'Write',
      "The file /Volumes/jer4TBv3/agent-dash/.specify/memory/constitution.md has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n     1→# AgentDash Constitution\n",
    );
    expect(updated.typed).toMatchObject({
      kind: 'write',
      data: { filePath: '/Volumes/jer4TBv3/agent-dash/.specify/memory/constitution.md', operation: 'update' },
    });
  });

  it('TodoWrite: the new list comes from the input', () => {
    const todos = [{ content: 'Write tests', status: 'in_progress', activeForm: 'Writing tests' }];
    const out = typeOf(
      'TodoWrite',
      'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable',
      { input: { todos } },
    );
    expect(out.typed).toEqual({ kind: 'todo-write', tool: 'TodoWrite', data: { newTodos: todos } });
  });

  it('Task: array content is the subagent text', () => {
    const text =
      'Based on my research, I can now provide you with a comprehensive recommendation.\n\n## Decision: **SSE**';
    const out = typeOf('Task', [{ kind: 'text', text }], { input: { description: 'Research', prompt: 'Go' } });
    expect(out.typed).toEqual({
      kind: 'agent',
      tool: 'Task',
      data: { status: 'completed', description: 'Research', prompt: 'Go', text },
    });
  });

  it('AskUserQuestion: "Q"="A" pairs, one and several', () => {
    const one = typeOf(
      'AskUserQuestion',
      'User has answered your questions: "Which command should I execute first?"="/speckit.constitution". You can now continue with the user\'s answers in mind.',
    );
    expect(one.typed).toEqual({
      kind: 'ask-user-question',
      tool: 'AskUserQuestion',
      data: { questions: [], answers: { 'Which command should I execute first?': '/speckit.constitution' } },
    });
    const three = typeOf(
      'AskUserQuestion',
      'User has answered your questions: "What is the name of this project?"="AgentDash", "What type of project is this?"="Full-stack application", "How many core governing principles do you want? (Constitution template has 5 by default)"="5 principles". You can now continue with the user\'s answers in mind.',
    );
    expect(three.typed.kind === 'ask-user-question' && three.typed.data.answers).toEqual({
      'What is the name of this project?': 'AgentDash',
      'What type of project is this?': 'Full-stack application',
      'How many core governing principles do you want? (Constitution template has 5 by default)': '5 principles',
    });
  });

  it('AskUserQuestion and ExitPlanMode rejected by the user: expected user-rejected', () => {
    for (const tool of ['AskUserQuestion', 'ExitPlanMode']) {
      const out = typeOf(tool, REJECTED, { isError: true });
      expect(out.typed).toEqual({ kind: 'error', tool, message: REJECTED });
      expect(out.error).toEqual({ category: 'user-rejected', severity: 'expected', message: REJECTED });
    }
  });

  it("a call cancelled because a parallel call failed: expected, the failure being the other call's", () => {
    // 19 in the wild set (one missing file cancelled 7 Reads, each counted a real "validation" error)
    const message = '<tool_use_error>Sibling tool call errored</tool_use_error>';
    const out = typeOf('Read', message, { isError: true });
    expect(out.error).toEqual({
      category: 'interrupted',
      severity: 'expected',
      message: 'Sibling tool call errored',
    });
  });

  it('WebSearch: query and Links json', () => {
    const out = typeOf(
      'WebSearch',
      'Web search results for query: "Gemini API image generation endpoint 2025 generateContent JSON format"\n\nLinks: [{"title":"Generate content with the Gemini API in Vertex AI | Generative AI on Vertex AI | Google Cloud Documentation","url":"https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference"},{"title":"Image generation with Gemini (aka Nano Banana 🍌) | Gemini API | Google AI for Developers","url":"https://ai.google.dev/gemini-api/docs/image-generation"}]',
    );
    expect(out.typed).toEqual({
      kind: 'web-search',
      tool: 'WebSearch',
      data: {
        query: 'Gemini API image generation endpoint 2025 generateContent JSON format',
        links: [
          {
            title:
              'Generate content with the Gemini API in Vertex AI | Generative AI on Vertex AI | Google Cloud Documentation',
            url: 'https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference',
          },
          {
            title: 'Image generation with Gemini (aka Nano Banana 🍌) | Gemini API | Google AI for Developers',
            url: 'https://ai.google.dev/gemini-api/docs/image-generation',
          },
        ],
        texts: [],
      },
    });
  });

  it('ExitPlanMode approved', () => {
    const out = typeOf(
      'ExitPlanMode',
      'User has approved your plan. You can now start coding. Start with updating your todo list if applicable',
      { input: { plan: '# Plan' } },
    );
    expect(out.typed).toEqual({
      kind: 'exit-plan-mode',
      tool: 'ExitPlanMode',
      data: { plan: '# Plan', approved: true },
    });
    const legacy = typeOf('exit_plan_mode', 'User has approved your plan. You can now start coding.');
    expect(legacy.typed).toEqual({
      kind: 'exit-plan-mode',
      tool: 'exit_plan_mode',
      data: { plan: null, approved: true },
    });
  });

  it('Skill and SlashCommand: "Launching skill:" / "Launching command:" are one kind', () => {
    expect(typeOf('Skill', 'Launching skill: superpowers:writing-skills').typed).toEqual({
      kind: 'skill',
      tool: 'Skill',
      data: { commandName: 'superpowers:writing-skills', success: true },
    });
    expect(typeOf('Skill', 'Launching skill: using-animejs-v4').typed).toMatchObject({
      data: { commandName: 'using-animejs-v4' },
    });
    expect(typeOf('SlashCommand', 'Launching command: /speckit.tasks').typed).toEqual({
      kind: 'skill',
      tool: 'SlashCommand',
      data: { commandName: 'speckit.tasks', success: true },
    });
  });

  it('BashOutput: running shell tags', () => {
    const out = typeOf(
      'BashOutput',
      '<status>running</status>\n\n<stdout>\n> agentdash-frontend@0.0.1 dev\n> vite dev\n</stdout>\n\n<stderr>\n▲ [WARNING] Cannot find base config file\n</stderr>\n\n<timestamp>2025-11-22T05:13:07.944Z</timestamp>',
      { input: { bash_id: 'abc123' } },
    );
    expect(out.typed).toEqual({
      kind: 'task-output',
      tool: 'BashOutput',
      data: {
        taskId: 'abc123',
        status: 'running',
        stdout: '> agentdash-frontend@0.0.1 dev\n> vite dev',
        stderr: '▲ [WARNING] Cannot find base config file',
        timestamp: '2025-11-22T05:13:07.944Z',
      },
    });
  });

  it('BashOutput: completed shell with exit code', () => {
    const out = typeOf(
      'BashOutput',
      '<status>completed</status>\n\n<exit_code>0</exit_code>\n\n<stdout>\n┌  Welcome to the Svelte CLI! (v0.10.2)\n</stdout>\n\n<stderr>\nnpm warn exec\n</stderr>\n\n<timestamp>2025-11-22T05:09:41.098Z</timestamp>',
    );
    expect(out.typed).toMatchObject({
      kind: 'task-output',
      data: {
        status: 'completed',
        exitCode: 0,
        stdout: '┌  Welcome to the Svelte CLI! (v0.10.2)',
        stderr: 'npm warn exec',
      },
    });
  });

  it('BashOutput: no shell found is an expected not-running error', () => {
    const out = typeOf('BashOutput', '<tool_use_error>No shell found with ID: 189a38</tool_use_error>', {
      isError: true,
    });
    expect(out.error).toEqual({
      category: 'not-running',
      severity: 'expected',
      message: 'No shell found with ID: 189a38',
    });
  });

  it('TaskOutput tags (FORMAT §7)', () => {
    const out = typeOf(
      'TaskOutput',
      '<retrieval_status>success</retrieval_status>\n\n<task_id>bcb7a44</task_id>\n\n<task_type>local_bash</task_type>\n\n<status>completed</status>\n\n<exit_code>2</exit_code>\n\n<output>\ntick 1\n</output>',
    );
    expect(out.typed).toEqual({
      kind: 'task-output',
      tool: 'TaskOutput',
      data: {
        retrievalStatus: 'success',
        taskId: 'bcb7a44',
        taskType: 'local_bash',
        status: 'completed',
        exitCode: 2,
        output: 'tick 1',
      },
    });
  });

  it('KillShell: JSON success, and "is not running" as an expected error', () => {
    const ok = typeOf(
      'KillShell',
      '{"message":"Successfully killed shell: 581cd5 (curl -N http://localhost:5174/api/events &)","shell_id":"581cd5"}',
    );
    expect(ok.typed).toEqual({
      kind: 'task-stop',
      tool: 'KillShell',
      data: {
        message: 'Successfully killed shell: 581cd5 (curl -N http://localhost:5174/api/events &)',
        taskId: '581cd5',
        command: 'curl -N http://localhost:5174/api/events &',
      },
    });
    for (const status of ['completed', 'killed', 'failed']) {
      const message = `Shell b8d10a is not running, so cannot be killed (status: ${status})`;
      const err = typeOf('KillShell', message, { isError: true });
      expect(err.error).toEqual({ category: 'not-running', severity: 'expected', message });
    }
    const stop = typeOf('TaskStop', '<tool_use_error>No task found with ID: bgect3tr0</tool_use_error>', {
      isError: true,
    });
    expect(stop.error).toMatchObject({ category: 'not-running', severity: 'expected' });
  });
});
