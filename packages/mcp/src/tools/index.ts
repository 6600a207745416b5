import { registerCancelTask } from './cancel-task';
import { registerCreateTask } from './create-task';
import { registerCreateTopUp } from './create-top-up';
import { registerGetAccount } from './get-account';
import { registerGetResults } from './get-results';
import { registerGetTask } from './get-task';
import { registerListTasks } from './list-tasks';
import { registerQuoteTask } from './quote-task';
import { registerReviewSubmission } from './review-submission';
import { registerSendMessage } from './send-message';
import { registerSandboxClock } from './sandbox-clock';
import { registerSandboxWorkers } from './sandbox-workers';
import type { RegisterTool } from './tool';
import { registerWaitForTask } from './wait-for-task';

export type { RegisterTool, ToolOptions } from './tool';

/** The tools every key gets, by name, in the order an agent uses them. */
export const CORE = {
  get_account: registerGetAccount,
  quote_task: registerQuoteTask,
  create_task: registerCreateTask,
  list_tasks: registerListTasks,
  get_task: registerGetTask,
  wait_for_task: registerWaitForTask,
  get_results: registerGetResults,
  review_submission: registerReviewSubmission,
  send_message: registerSendMessage,
  cancel_task: registerCancelTask,
  create_top_up: registerCreateTopUp,
} satisfies Record<string, RegisterTool>;

/** Only for sandbox keys (`lw_test_`): the service in live mode has no sandbox. */
export const SANDBOX = {
  sandbox_workers: registerSandboxWorkers,
  sandbox_clock: registerSandboxClock,
} satisfies Record<string, RegisterTool>;
