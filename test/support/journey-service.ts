// A scripted journey service for loopback (`startLoopback`/`serveEach`): the journey-run create (202 with its
// Location), the run, the site's journeys, each checkpoint's scan and its findings, for the gate's journeys tests
// that need answers the simulator does not give (hostile text, unknown statuses, a thousand checkpoints).
import type { Handler, Seen } from './loopback.js';

/** What the service answers; each read may depend on the request (e.g. the scan id in its path). */
export interface JourneyAnswers {
  /** The run, as `GET /journey-runs/{id}` answers it; its `id` names the Location of the create. */
  run: { id: string } & Record<string, unknown>;
  /** `GET /sites/{id}/journeys`. @default [] */
  journeys?: unknown[];
  /** `GET /scans/{id}`. */
  scan: (req: Seen) => unknown;
  /** `GET /scans/{id}/violations`. @default [] */
  violations?: unknown[];
  /** Called before a scan's answer (its read or its findings'), e.g. to count reads in flight. */
  onScan?: (req: Seen) => Promise<void> | void;
}

/**
 * A handler answering the journey endpoints the gate calls.
 * @example await serve(journeyService({ run, scan: () => ({ id: SCAN, status: 'COMPLETED' }) }))
 */
export function journeyService(answers: JourneyAnswers): Handler {
  return async (req, res) => {
    const path = req.url;
    const scan = path.includes('/scans/');
    if (scan) await answers.onScan?.(req);
    const body =
      req.method === 'POST'
        ? { ...answers.run, status: 'QUEUED', checkpoints: [] }
        : path.includes('/journeys')
          ? (answers.journeys ?? [])
          : path.endsWith('/violations')
            ? (answers.violations ?? [])
            : scan
              ? answers.scan(req)
              : answers.run;
    res.writeHead(req.method === 'POST' ? 202 : 200, {
      'content-type': 'application/json',
      ...(req.method === 'POST' ? { location: `/api/v1/journey-runs/${answers.run.id}` } : {}),
    });
    res.end(JSON.stringify(body));
  };
}
