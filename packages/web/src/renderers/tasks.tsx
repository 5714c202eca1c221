import { arr, input, obj, ok, type RendererProps, str, tur } from './common';

interface Todo {
  readonly key: string;
  readonly text: string;
  readonly status: string;
}

function todosOf(value: unknown): Todo[] {
  return arr(value).map((t, n) => {
    const o = obj(t);
    const text = str(o.content) ?? str(o.subject) ?? str(o.activeForm) ?? '';
    return { key: str(o.id) ?? text ?? String(n), text, status: str(o.status) ?? 'pending' };
  });
}

function TodoItem({ todo, mark }: { todo: Todo; mark?: 'added' | 'changed' | 'removed' }) {
  return (
    <div className={`todo ${todo.status} ${mark ?? ''}`} data-testid={mark ? `todo-${mark}` : 'todo'}>
      <span className={`todo-box ${todo.status}`}>
        {todo.status === 'completed' ? '✓' : todo.status === 'in_progress' ? '•' : ''}
      </span>
      <span className="todo-text">{todo.text}</span>
      {todo.status === 'in_progress' && <span className="badge pending">in progress</span>}
    </div>
  );
}

export function TodoWriteRenderer({ call }: RendererProps) {
  const t = tur(call);
  const before = todosOf(t.oldTodos);
  const after = todosOf(t.newTodos ?? input(call).todos);
  const beforeByText = new Map(before.map((x) => [x.text, x]));
  const afterTexts = new Set(after.map((x) => x.text));
  const removed = before.filter((x) => !afterTexts.has(x.text));
  const done = after.filter((x) => x.status === 'completed').length;
  return (
    <div data-testid="renderer-TodoWrite">
      <div className="dim" style={{ fontSize: 12.5, marginBottom: 8 }}>
        {done}/{after.length} completed
      </div>
      <div className="todos">
        <div>
          <div className="section-label">Before</div>
          {before.length === 0 ? (
            <div className="dim" style={{ fontSize: 12.5 }}>
              (empty)
            </div>
          ) : (
            before.map((x) => (
              <TodoItem key={`b-${x.key}`} todo={x} mark={afterTexts.has(x.text) ? undefined : 'removed'} />
            ))
          )}
        </div>
        <div>
          <div className="section-label">After</div>
          {after.map((x) => {
            const old = beforeByText.get(x.text);
            const mark = !old
              ? before.length > 0
                ? 'added'
                : undefined
              : old.status !== x.status
                ? 'changed'
                : undefined;
            return <TodoItem key={`a-${x.key}`} todo={x} mark={mark} />;
          })}
          {removed.length > 0 && (
            <div className="dim" style={{ fontSize: 12 }}>
              {removed.length} removed
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

export function TaskToolRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const task = obj(t.task);
  const change = obj(t.statusChange);
  const tasks = todosOf(t.tasks);
  const name = call.canonicalName;
  return (
    <div data-testid={`renderer-${name}`} style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {name === 'TaskCreate' && (
        <div className="row">
          <span className="badge ok">new</span>
          {str(task.id) && <span className="pill">#{str(task.id)}</span>}
          <span style={{ fontWeight: 600 }}>{str(task.subject) ?? str(i.subject)}</span>
          {(str(task.description) ?? str(i.description)) && (
            <span className="dim">{str(task.description) ?? str(i.description)}</span>
          )}
        </div>
      )}
      {name === 'TaskUpdate' && (
        <div className="row">
          <span className="pill">#{str(t.taskId) ?? str(i.taskId)}</span>
          {str(change.from) && str(change.to) ? (
            <span data-testid="todo-changed">
              <span className="badge neutral">{str(change.from)}</span> →{' '}
              <span className="badge pending">{str(change.to)}</span>
            </span>
          ) : null}
          {arr(t.updatedFields).length > 0 && <span className="dim">updated {arr(t.updatedFields).join(', ')}</span>}
          {str(t.error) && <span className="badge error">{str(t.error)}</span>}
        </div>
      )}
      {name === 'TaskGet' && (
        <div className="row">
          <span className="pill">#{str(task.id) ?? str(i.taskId)}</span>
          <span style={{ fontWeight: 600 }}>{str(task.subject)}</span>
          {str(task.status) && <span className="badge neutral">{str(task.status)}</span>}
          {str(task.description) && <span className="dim">{str(task.description)}</span>}
        </div>
      )}
      {name === 'TaskList' && ok(call) && (
        <div>
          {tasks.length === 0 ? (
            <span className="dim">No tasks.</span>
          ) : (
            tasks.map((x) => <TodoItem key={x.key} todo={x} />)
          )}
        </div>
      )}
    </div>
  );
}
