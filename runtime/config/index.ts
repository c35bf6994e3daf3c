// Runtime configuration: types, the loader and its error.
export { CONFIG_FILE_NAME, loadWowConfig, type LoadWowConfigOptions } from "./load-config.js";
export { WowConfigError } from "./config-error.js";
export type { ConfigProblem, HttpConfig, HttpCredential, ScheduleConfig, StoreConfig, TimersConfig, WowConfig } from "./types.js";
export { declaredEnvironment } from "./config-keys.js";
