// Public compiler API (`import … from "wowc"`).
export {};
