/**
 * `@legwork/sdk/types`: the API's vocabulary, generated from its OpenAPI document (npm run sdk:generate), for code
 * that must not restate it: the types (`paths`, `components`, `operations`), every enum as an array named after
 * where it sits (`createTaskRequestTask_typeValues`), and every bound as an object per schema or query
 * (`createTaskRequestLimits.budget_cents.maximum`). No runtime dependency: the web apps bundle it, the MCP tools
 * build their input schemas from it.
 */
export * from './generated/openapi';
export * from './generated/limits';

import type { components } from './generated/openapi';

/** The API's schemas by name: `Schemas['CreateTaskRequest']`. */
export type Schemas = components['schemas'];
