// Command routes in the manifest: the runtime's route grammar (one definition, served by its HTTP
// layer), re-exported for the compiler's public API.
export { commandRoute, snakeCase, type CommandRoute, type HttpMethod } from "../../runtime/model/command-route.js";
