// Public runtime API (`import … from "wowc/runtime"`). Imports nothing from compiler/.
export {};
