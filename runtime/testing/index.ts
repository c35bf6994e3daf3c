// Test kit (`import … from "wowc/testing"`).
export {};
