/**
 * The Codex `event_msg` lines the decoder neither folds into a response or a call nor turns into a record of its
 * own kind: those with words of their own are the client's notes (`eventNote`); those known to say nothing a view
 * needs are meta records (`SILENT_EVENTS`); any other is an unknown record, kept raw, shown and counted.
 */
import { isRecord, str } from '../../internal/guards.js';

/** Events known to hold nothing to show: a turn's bounds, settings applied, a call's start, streamed deltas. */
export const SILENT_EVENTS: ReadonlySet<string> = new Set([
  'task_started',
  'task_complete',
  'turn_started',
  'turn_complete',
  'thread_settings_applied',
  'session_configured',
  'sub_agent_activity',
  'context_compacted',
  'entered_review_mode',
  'exited_review_mode',
  'dynamic_tool_call_request',
  'exec_command_begin',
  'exec_command_output_delta',
  'patch_apply_begin',
  'mcp_tool_call_begin',
  'web_search_begin',
  'image_generation_begin',
  'collab_agent_spawn_begin',
  'collab_waiting_begin',
  'collab_close_begin',
  'collab_agent_interaction_begin',
  'agent_message_delta',
  'agent_reasoning_delta',
  'agent_reasoning_raw_content_delta',
  'turn_diff',
  'plan_update',
  'shutdown_complete',
]);

/** A note's words and level, as a system record carries them. */
export interface EventNote {
  readonly text: string;
  readonly level: 'info' | 'warning';
}

/** The words of an event that has some (the approval guardian's verdict, a goal, an undo, a background message). */
export function eventNote(type: string, payload: Record<string, unknown>): EventNote | undefined {
  switch (type) {
    case 'guardian_assessment': {
      const status = str(payload.status) ?? 'assessed';
      const risk = str(payload.risk_level);
      const action = isRecord(payload.action) ? payload.action : {};
      const command = str(action.command) ?? str(action.path) ?? str(action.url);
      const rationale = str(payload.rationale);
      const text = `Guardian ${status}${risk ? ` (risk ${risk})` : ''}${command ? `: ${command}` : ''}`;
      const level = status === 'approved' || status === 'allowed' ? 'info' : 'warning';
      return { text: rationale ? `${text} — ${rationale}` : text, level };
    }
    case 'thread_goal_updated': {
      const goal = isRecord(payload.goal) ? payload.goal : {};
      const objective = str(goal.objective);
      if (objective === undefined) return undefined;
      return { text: `Goal ${str(goal.status) ?? 'set'}: ${objective}`, level: 'info' };
    }
    case 'undo_completed': {
      const message = str(payload.message);
      const done = payload.success !== false;
      return {
        text: `Undo ${done ? 'completed' : 'failed'}${message ? `: ${message}` : ''}`,
        level: done ? 'info' : 'warning',
      };
    }
    case 'background_event': {
      const message = str(payload.message);
      return message === undefined ? undefined : { text: message, level: 'info' };
    }
    default:
      return undefined;
  }
}
