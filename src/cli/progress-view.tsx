/**
 * The terminal progress bar (docs/architecture.md#progress-is-an-event-stream). The one
 * module that imports ink and react; execute.ts loads it lazily on the first progress event, so commands
 * that report no progress, and `catintel --help`, never pay for it. It renders on stderr, leaving stdout to
 * the command's result.
 *
 *   score  ████████████░░░░░░░░░░░░░░░░░░  41%  412,000 rows  3.1 s
 */
import { Box, Text, render, type Instance } from 'ink';
import type { ProgressEvent } from '../context.js';
import { escapeControls } from '../lib/control-chars.js';

const BAR_WIDTH = 30;

export interface ProgressViewState {
  event: ProgressEvent;
  elapsedMs: number;
}

/** The bar's text: filled and empty cells for done/total, or nothing when the total is unknown. */
export function barText(done: number, total: number | undefined, width = BAR_WIDTH): string {
  if (!total || total <= 0) return '';
  const filled = Math.max(0, Math.min(width, Math.round((done / total) * width)));
  return '█'.repeat(filled) + '░'.repeat(width - filled);
}

export function ProgressLine({ event, elapsedMs }: ProgressViewState) {
  const total = event.total;
  const pct =
    total && total > 0 ? `${Math.min(100, Math.floor((event.done / total) * 100))}%`.padStart(4) : `${event.done}`;
  const message = event.message
    ? escapeControls(event.message).replace(/\d{4,}/g, (n) => Number(n).toLocaleString('en-US'))
    : '';
  return (
    <Box>
      <Text color="cyan" bold>
        {event.task}
      </Text>
      <Text> {barText(event.done, total)} </Text>
      <Text bold>{pct}</Text>
      <Text dimColor>
        {message ? `  ${message}` : ''} {(elapsedMs / 1000).toFixed(1)} s
      </Text>
    </Box>
  );
}

export interface ProgressView {
  update(e: ProgressEvent): void;
  stop(): void;
}

/** `startedMs`: when the command began (the bar appears only once ink has loaded). */
export function startProgressView(
  stream: NodeJS.WriteStream,
  startedMs: number = Date.now(),
  nowMs: () => number = Date.now,
): ProgressView {
  const started = startedMs;
  let instance: Instance | undefined;
  return {
    update(e) {
      const node = <ProgressLine event={e} elapsedMs={nowMs() - started} />;
      if (instance) instance.rerender(node);
      else
        instance = render(node, {
          stdout: stream,
          stderr: stream,
          patchConsole: false,
          exitOnCtrlC: false,
          maxFps: 10,
        });
    },
    stop() {
      instance?.unmount();
      instance = undefined;
    },
  };
}
