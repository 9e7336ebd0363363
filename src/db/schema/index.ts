export * from "./accounts";
export * from "./connections";
export * from "./emails";
export * from "./suppressions";
