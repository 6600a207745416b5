import type { Behavior, Persona, Step } from './behaviors';

/** Tables of the simulation module (migrations/1732200060000-sandbox-workers.ts). */
export interface SandboxWorkerRow {
  worker_id: string;
  agent_id: string;
  name: string;
  persona: Persona | null;
  behavior: Behavior;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface SandboxActionRow {
  id: string;
  worker_id: string;
  task_id: string;
  assignment_id: string;
  step: Step;
  due_at: Date;
  done_at: Date | null;
  /** `ok`, or the error code the service answered. */
  outcome: string | null;
  detail: Record<string, unknown> | null;
  created_at: Date;
}
