import { describe } from "vitest";
import { familiesOn } from "./shard-families";

describe("every family, for a workspace in the shard DB_2", () => familiesOn("DB_2"));
