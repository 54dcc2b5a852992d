// Every command of svc-a11y, by name.
import type { Command } from '../context.js';
import { ciCommand } from '../gate/ci.js';
import { demoCommand } from './demo.js';
import { doctorCommand } from './doctor.js';
import { journeyRunCommand, scanCommand, siteRunCommand, verifyFixCommand } from './jobs.js';
import { fixesCommand, journeysCommand, rootCausesCommand, sitesCommand, trendCommand } from './lists.js';
import { mcpCommand } from './mcp.js';
import { mergeCommand } from '../gate/merge.js';
import { simulatorCommand } from './simulator.js';
import { webhookCommand } from './webhook.js';

/** The commands in the order `--help` lists them. */
export const commands: readonly Command[] = [
  ciCommand,
  mergeCommand,
  scanCommand,
  siteRunCommand,
  rootCausesCommand,
  sitesCommand,
  journeysCommand,
  journeyRunCommand,
  fixesCommand,
  verifyFixCommand,
  trendCommand,
  doctorCommand,
  webhookCommand,
  mcpCommand,
  demoCommand,
  simulatorCommand,
];
