export * from "./accounts";
export * from "./connections";
export * from "./emails";
export * from "./events";
export * from "./smtp-logs";
export * from "./support";
export * from "./suppressions";
export * from "./tickets";
