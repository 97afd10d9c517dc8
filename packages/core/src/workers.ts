import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TransferListItem, Worker } from 'node:worker_threads';

/**
 * node:worker_threads, loaded when a pool starts or a worker serves: importing it costs every process that loads
 * @cvdevkit/core (the CLI, every plugin) about 25 more of Node's internal modules (the worker, its message ports,
 * the stream family), for the many runs that start no worker.
 */
const threads = (): typeof import('node:worker_threads') => process.getBuiltinModule('node:worker_threads');
import { DevkitError, isDevkitError, type DevkitErrorInit } from './errors.js';

/**
 * The URL of a worker script next to the calling module. When the caller runs from TypeScript
 * sources (tests under vitest resolve `src/*.ts`), the compiled `dist/*.js` twin is returned,
 * because worker threads load plain JavaScript.
 */
export function resolveWorkerScript(callerUrl: string, relative: string): URL {
  const url = new URL(relative, callerUrl);
  const path = fileURLToPath(url);
  if (existsSync(path)) return url;
  const dist = path.replace(/([\\/])src([\\/])/, '$1dist$2').replace(/\.ts$/, '.js');
  if (existsSync(dist)) return pathToFileURL(dist);
  throw new DevkitError({
    kind: 'internal',
    code: 'internal/worker-script',
    detail: `worker script not found`,
    expected: path,
    found: 'no such file (run the build first)',
  });
}

interface TaskMessage {
  id: number;
  task: unknown;
}
interface ResultMessage {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: SerializedError;
}
interface SerializedError {
  devkit: boolean;
  message: string;
  stack?: string;
  init?: DevkitErrorInit;
}

function serializeError(e: unknown): SerializedError {
  if (isDevkitError(e)) {
    const d = e as DevkitError;
    return {
      devkit: true,
      message: d.message,
      init: {
        kind: d.kind, code: d.code, file: d.file, line: d.line, pixel: d.pixel, field: d.field, offset: d.offset,
        expected: d.expected, found: d.found, hint: d.hint, detail: d.detail, problems: d.problems, message: d.message,
      },
    };
  }
  const err = e instanceof Error ? e : new Error(String(e));
  return { devkit: false, message: err.message, stack: err.stack };
}

function deserializeError(s: SerializedError): Error {
  if (s.devkit && s.init) return new DevkitError(s.init);
  const err = new Error(s.message);
  if (s.stack) err.stack = s.stack;
  return err;
}

/**
 * Call inside a worker script: answers every task the pool sends with `handler(task, workerData)`.
 * A handler may return `{ value, transfer }` via `transferable()` to move buffers instead of copying.
 */
export function serveWorker<T, R>(handler: (task: T, workerData: unknown) => R | Promise<R>): void {
  const { parentPort: port, workerData: threadWorkerData } = threads();
  if (!port) throw new Error('serveWorker must run inside a worker thread');
  port.on('message', async (msg: TaskMessage) => {
    try {
      const out = await handler(msg.task as T, threadWorkerData);
      if (out instanceof Transferable) port.postMessage({ id: msg.id, ok: true, result: out.value } satisfies ResultMessage, out.transfer);
      else port.postMessage({ id: msg.id, ok: true, result: out } satisfies ResultMessage);
    } catch (e) {
      port.postMessage({ id: msg.id, ok: false, error: serializeError(e) } satisfies ResultMessage);
    }
  });
}

class Transferable<V> {
  constructor(readonly value: V, readonly transfer: TransferListItem[]) {}
}
/** Wraps a worker result so that the listed buffers are moved, not copied. */
export function transferable<V>(value: V, transfer: TransferListItem[]): V {
  return new Transferable(value, transfer) as unknown as V;
}

export interface WorkerPoolOptions {
  /** Number of threads (>= 1). */
  workers: number;
  /** Passed to every worker as `workerData`. */
  workerData?: unknown;
  signal?: AbortSignal;
}

/** The parent's Node flags minus `--input-type`, which a worker refuses (a parent run as `node --input-type=module -e …`). */
const WORKER_EXEC_ARGV = process.execArgv.filter((a) => !a.startsWith('--input-type'));

/** A fixed pool of worker threads running one script; tasks are queued and served in order. */
export class WorkerPool<T, R> {
  private readonly idle: Worker[] = [];
  private readonly all: Worker[] = [];
  private readonly queue: { task: T; transfer?: TransferListItem[]; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private readonly pending = new Map<Worker, { resolve: (r: R) => void; reject: (e: unknown) => void }>();
  private nextId = 0;
  private closed = false;

  constructor(script: URL, private readonly options: WorkerPoolOptions) {
    const n = Math.max(1, Math.floor(options.workers));
    for (let i = 0; i < n; i++) {
      const w = new (threads().Worker)(script, { workerData: options.workerData, execArgv: WORKER_EXEC_ARGV });
      w.on('message', (msg: ResultMessage) => this.onMessage(w, msg));
      w.on('error', (err) => this.onFailure(w, err));
      w.on('exit', (code) => {
        if (!this.closed && code !== 0) this.onFailure(w, new Error(`worker exited with code ${code}`));
      });
      w.unref();
      this.all.push(w);
      this.idle.push(w);
    }
    options.signal?.addEventListener('abort', () => void this.close(new Error('aborted')), { once: true });
  }

  get size(): number {
    return this.all.length;
  }

  run(task: T, transfer?: TransferListItem[]): Promise<R> {
    if (this.closed) return Promise.reject(new Error('worker pool is closed'));
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ task, transfer, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const w = this.idle.pop()!;
      const job = this.queue.shift()!;
      this.pending.set(w, { resolve: job.resolve, reject: job.reject });
      w.ref();
      w.postMessage({ id: this.nextId++, task: job.task } satisfies TaskMessage, job.transfer ?? []);
    }
  }

  private onMessage(w: Worker, msg: ResultMessage): void {
    const p = this.pending.get(w);
    this.pending.delete(w);
    w.unref();
    this.idle.push(w);
    if (p) {
      if (msg.ok) p.resolve(msg.result as R);
      else p.reject(deserializeError(msg.error!));
    }
    this.pump();
  }

  private onFailure(w: Worker, err: unknown): void {
    const p = this.pending.get(w);
    this.pending.delete(w);
    if (p) p.reject(err);
    void this.close(err);
  }

  /** Terminates every thread; queued tasks are rejected with `reason`. */
  async close(reason?: unknown): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(reason ?? new Error('worker pool is closed'));
    for (const [, p] of this.pending) p.reject(reason ?? new Error('worker pool is closed'));
    this.pending.clear();
    await Promise.all(this.all.map((w) => w.terminate()));
  }
}

/**
 * Runs `items` through a pool of `workers` threads of `script`, returning results in input order.
 * `onResult` is called as each finishes (for progress). The pool is closed at the end.
 */
export async function mapInWorkers<T, R>(
  script: URL,
  items: readonly T[],
  options: WorkerPoolOptions & { onResult?: (result: R, index: number) => void },
): Promise<R[]> {
  const pool = new WorkerPool<T, R>(script, { ...options, workers: Math.min(options.workers, Math.max(1, items.length)) });
  try {
    const out = new Array<R>(items.length);
    await Promise.all(
      items.map(async (item, i) => {
        const r = await pool.run(item);
        out[i] = r;
        options.onResult?.(r, i);
      }),
    );
    return out;
  } finally {
    await pool.close();
  }
}
