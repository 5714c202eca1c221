/**
 * The index's two versions, kept apart from the SQL so that the warm path (warm.ts), which only compares them with
 * the database's, loads none of it.
 *
 * - `SCHEMA_VERSION` (`PRAGMA user_version`): the steps of schema-archive.ts applied, for the tables that cannot be
 *   rebuilt (the archive, the settings). An index of a higher version is refused (`NewerIndexError`).
 * - `DERIVED_VERSION` (the `derived_version` table): the DDL of every derived table (schema-derived.ts) and the shape
 *   of the JSON they hold (2: usage parts by request-size band, not a long-context flag; 3: `records.is_prompt` by
 *   core's `isPrompt`, blank prompts included; 4: `records.is_prompt` and the header's `shown` one column, `shown`
 *   0/1/2; 5: `warm_state` a rowid table; 6: `sessions` without the unused `usage` column, and every session's title
 *   by the rule that titles one whose main file gives none from a subagent's prompt; 7: `responses_key`, and a
 *   session's `usage_detail` without the responses another session owns; 8: Codex responses end at a prompt, a
 *   review's request is its prompt; 9: `sessions.issues` counts pairing's issues too; 10: `records.copy_of`, a
 *   subagent's records copied into its
 *   parent's file stored as its thread's when its file is not in the session; 11: a Read too large by tokens is a
 *   `validation` error, as one too large by bytes was; 12: `copy_reads`, the copies' pending reads stored, and
 *   `records_copies` by file; 13: a session without its main file has the time of its files' records, not none;
 *   14: `sessions.subagents`, the subagents `loadSession` finds, runs inside the main file and subagents kept as
 *   copies included, and `responses.key` of a response without a message id by the session's place in its home, not
 *   its path; 15: `files_home`; 16: `files_home` by agent, then home; 17: a Gemini session in a hash-named folder has
 *   the project path whose SHA-256 names it, when it names a path below it; 18: a Codex web search has no
 *   duration; 19: a Copilot shell is a background task only when it ran async; 20: `docs.part` a document's number
 *   among its place's documents, not its record's; 21: `responses.input_unrecorded`, `records.input_tokens` null
 *   and a usage part's `inputUnrecorded` for a response that recorded no input; 22: a Codex 0.169 compaction's
 *   summary is its note's text, not an answer; 23: a Gemini 0.20 document left cut short is reported, not held back
 *   unseen; 24: so is a JSONL file's last line left cut short, and a file read on from its offset drops its issues
 *   from that line on; 25: and a last line over the length limit without its newline, and bytes left after a last
 *   line read as complete JSON; 26: `records.output_at_least` and `responses.output_unrecorded`, for a response whose
 *   records kept only the stream's first output count; 27: `files.headless`, a headless run's output, whose session
 *   yields to its transcript; 28: `sessions.subagents` without the client's cache warm-ups, core's `isWarmup`, and `sessions.warmups`
 *   counting them; 29: a Codex multi-agent tool of the `collaboration` namespace is the tool it names, its
 *   `canonical_name` and kind those of the flat `spawn_agent`, `wait_agent`, and a multi-agent tool the client
 *   refused (`collab spawn failed: …`) a failed call, and a legacy rollout's `server__tool` an MCP call; 30: a call
 *   held by copies of one session in several folders goes to the copy its responses go to, never to the one read
 *   first; 31: what a slash command printed (`<local-command-stdout>`) is a note the timeline shows, `records.shown`
 *   2; an empty one and the caveat to the model, `command-aside`, still 0; 32: `responses.key` of a response whose id
 *   the client or decoder made scoped by its session's id (core's `responseKeyOf`), a Codex `turn_context`'s model on
 *   its meta row and in `sessions.models`, a Codex multi-agent refusal an error only in those tools' outputs (and a v2
 *   spawn answered in plain text one), a `__` name an MCP call only in a legacy rollout (renamed `mcp__server__tool`),
 *   and a Claude Code Read's line counts in file lines); 33: no total for a Claude Code Read that did not see its
 *   file's end, and no `sessions.ended_*` for a session whose last prompts or responses are undated (a legacy Codex
 *   rollout); 34: \`calls.touched\` (which sessions touched a file); 35: secrets counted as exports redact them (a
 *   tool input's strings with their keys, JSON held in a string); 36: \`calls.touched\` relative to the call's folder,
 *   no \`touched_files\` table; 37: no \`calls.message_id\` (written, never read: the records keep it); 38: a touched path
 *   relative only where joining it back gives it again; 39: a Claude Code `api_error` note's text from its `error`
 *   and retry (core's `apiErrorText`), a legacy Codex rollout's project from its first prompt's
 *   `<environment_context>`, a session without its main file's issue by core's `missingMainIssue`, and a Claude Code
 *   user record without message content an unknown record, not an empty prompt, and a call cancelled because a
 *   sibling call failed an expected `interrupted` error; 40: a Copilot CLI response's Claude model by Anthropic's id
 *   (`claude-sonnet-4-6`, not Copilot's `claude-sonnet-4.6`); 41: time after a tool whose turn went no further (a call
 *   the person interrupted or refused) the person's, not the tool's (core's `partitionTime`); 42: a Codex shell call
 *   whose script is `apply_patch` with its patch in a here-document is a patch (its files touched); 43: the files a
 *   shell command only printed (`cat`, `sed -n`, … : core's `shellReadsOf`) touched, as reads; 44: what else a shell
 *   command plainly did to files (`>`, `tee`, `sed -i`, `rm`, `mv`, `cp`: core's `shellFilesOf`) touched, as
 *   changes, and no command read from a here-document's body; 45: a PowerShell command's (Codex in a Windows folder,
 *   Copilot CLI's `powershell`: `CallInput.shell`) by its cmdlets, `\` a separator there, and a Windows drive's
 *   touched paths with backslashes only (core's `joinedPath`); 46: a shell command's path in the home folder (`~/…`)
 *   touched as written, never joined to the session's folder, and a `~` inside a word (`a.txt~`) no expansion; 47: the
 *   files `git checkout -- f` and `git restore f` put back, edited; 48: Codex's `exec` (0.144+, a JavaScript script run
 *   with `tools.*`) no shell command: no files read from its script as from a command line; 49: its literal
 *   commands and patches (`CallInput.commands`, `patch`) touch their files; 50: a slash command's system records
 *   (`local_command`) shown as its user messages are (`records.shown`: none for an empty output); 51: the notes a
 *   timeline shows searched (`docs.kind` `note`); 52: a legacy Codex rollout's responses one per request, not per
 *   prompt; 53: a system note without content (an API error) searched by the line its data makes; 54: a note's
 *   tag never closed in it (`Array<string>`) searched as its text; 55: a session all of whose responses are another's
 *   a part of no response per model in `usage_detail` (it cost a known $0, not unknown); 56: a Codex approval the
 *   user declined ("patch rejected by user") a `user-rejected` failure, not a success that touched its files; 57: a
 *   legacy Codex rollout's working folder read from "Current working directory: …"; 58: a call reusing another call's
 *   id in its file a stored issue (`reused_call_id`); 59: a Codex turn's words written only as events (an aborted
 *   turn's `agent_message`, `agent_reasoning`) the agent's records, searched; 60: texts searched without their
 *   terminal control sequences (`indexedText`: `ESC[1mWould` is "Would"); 61: a Qwen Code file or folder named by
 *   itself is Qwen Code's, not Claude Code's or Gemini CLI's (their recognisers stricter); 62: a Codex call reported
 *   to run under a second whose output came more than 10 s later lasted its reported run (it waited first); 63: a
 *   control character between words (NUL, form feed) a separator in the searched text, not nothing; 64: an attachment
 *   holding words (a message queued while the agent worked, a hook's message) a note shown and searched; 65: an
 *   assistant message whose content is a string its text (searched), not nothing; 66: words the person sent beside a
 *   tool's result a note shown and searched (`interjection`), not hidden; 67: a fork's or resume's time its own records'
 *   (`sessions.own_from_ms`), not the copied conversation's again; 68: failed requests and the waits to retry them
 *   the model's time (core's `threadActivity`), not the person's or a tool's; 69: Codex events with words of their
 *   own (a guardian's assessment, a goal, an undo) notes, shown and searched, and an unknown event an unknown record;
 *   70: a Codex output that answers no call (0.169's goal context) a note, not an orphan result; 71: a record of a
 *   kind AgentDash does not know searched as the timeline shows it (its raw JSON), not only shown; 72: the image a
 *   Codex view_image call sent as a message of its own (before 0.169) the call's note (`tool-image`), not a prompt;
 *   73: credentials on command lines, after lower-case names and in API key headers secrets (docs/secrets.md);
 *   74: a Gemini web_fetch refused by the client's host rule (`[Blocked Host]`) permission-denied, not network;
 *   75: failed requests and retried attempts (core's `requestFailureOf`: `records.is_synthetic` 1 and 3) counted per
 *   session (`sessions.api_errors`, `api_retries`); 76: a response another session holds by the same id for another
 *   request counted as its own (core's `responseKeyOf`), not as a copy; 77: only the request id's tail kept for it
 *   (`responses.request_tail`, not 76's `request_id`); 78: a failed request a resume copied counted in the session
 *   that owns it (write/session-failures.ts), as its calls and responses are; 79: a shell command's failure its exit
 *   whatever words its output holds (core's `shellRules`), an MCP resource tool's failure `api-error`, a timestamp
 *   that is no ISO time (`1`) no time (core's `timestampMs`), a Codex MCP call that failed typed `mcp`, a write to an
 *   ended Codex process expected, a subagent whose file starts with a tool result asked its call's prompt, a cache
 *   warm-up's responses the session's own in `usage_detail` (not a subagent's); 80: a Codex, Gemini or Copilot
 *   message's content of another shape (one part, a number, a tool request without its id) kept, not dropped; a
 *   2.0.76 resume's cache warm-ups the resumed session's (core's `adoptResumeWarmups`), not a session of their own;
 *   no image's base64 searched (core's `searchableResultText`: a command's image stdout, 1.x's image JSON text); a
 *   title of text without spaces cut where it must, never inside a character (core's `cutTitle`); search's words
 *   with two marks on a Latin letter folded too (`docs_fts`: `remove_diacritics 2`), a mark part of its word
 *   (`categories 'L* N* Co M*'`); Thai, Lao, Myanmar and Khmer runs cut into words for search (write/cjk.ts); 81: a
 *   call's stored one-line summary cut never inside a character (core's `oneLine`, `characterCut`); 82: the secret
 *   rules of a review (values to their end, YAML fields, service tokens, code that reads a secret left alone); 83: a quoted passphrase's
 *   spaces part of its value (`PASSWORD="correct horse"`); 84: `pre_hooks`, a shell failure without an exit after a
 *   PreToolUse hook ran on the call `hook-blocked` (core's `blockedByHook`); 85: an interrupted call the person's
 *   decision, `expected` (core's `isPersonsDecision`); 86: a quoted
 *   value starts with no space (`echo "API_KEY=" >> .env; echo "x"` was redacted); 87: Codex's, Copilot
 *   CLI's and OpenCode's interruptions expected too; 88: `pre_hooks` one row per call and file, no index of its own;
 *   89: Codex's sandbox reports of a non-zero exit (up to 0.46) the command's failure with its code, a denial only
 *   when it says so; a Gemini thought's subject a paragraph of its own (the text searched); Codex 0.169's patches
 *   with their applied hunks and a deleted file's lines (its Files figures); a file a move put in place created.
 *   90: a Codex `exec` script's MCP calls (`exec-…` ids) calls of their own, each with its result and run.
 *   91: a Gemini 0.20 MCP tool named as 0.61 names it (`mcp_<server>_<tool>`), not bare.
 *   92: a Codex command its call's time limit killed (`command timed out after N milliseconds`) a `timeout`.
 *   93: a fork's or resume's prompts, responses and models copied from sessions that own them out of its counts
 *   (`sessions.copied_prompts`, `copied_responses`, `copied_models`).
 *   94: a Gemini 0.20 message's turns folded into it without their tokens counted as responses of unknown usage
 *   (`records.turns_unrecorded`).
 *   95: a Codex 0.3x–0.4x patch the client could not apply (`error: Failed to find expected lines …`) a failed call.
 *   96: a Codex `exec` script that printed a command's result failed when the command exited non-zero.
 *   97: a Codex 0.63-or-earlier call's duration only what its output reports (its line written with the output's).
 *   98: records glued on one line split and kept for Codex, Copilot, Gemini 0.61, OpenCode, Qwen (as Claude Code's).
 *   99: a Gemini session's client version from its update notice (`Gemini CLI update available! 0.23.0 → …`).
 *   100: a Codex sandbox's report of a command's exit typed with the command's stdout and stderr apart.
 *   101: a response's message id stored once when it is its key (`responses.message_raw`).
 *   A lower version drops them and builds them again from the transcripts; a higher one (a newer AgentDash's) is
 *   refused, unless a downgrade is asked for (`agentdash index --rebuild`): else two installs used in turn would
 *   rebuild the whole index each time the other had run.
 */
import type Database from 'better-sqlite3';

export const SCHEMA_VERSION = 29;
export const DERIVED_VERSION = 101;

/** The database's derived version: 0 when it has none (an index from before the derived DDL, or a new one). */
export function derivedVersionOf(db: Database.Database): number {
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'derived_version'").get();
  if (hasTable === undefined) return 0;
  return (db.prepare('SELECT max(version) FROM derived_version').pluck().get() as number | null) ?? 0;
}

/** Whether the database is at both versions of this program (nothing to migrate or rebuild). */
export function schemaIsCurrent(db: Database.Database): boolean {
  return (
    (db.pragma('user_version', { simple: true }) as number) === SCHEMA_VERSION &&
    derivedVersionOf(db) === DERIVED_VERSION
  );
}
