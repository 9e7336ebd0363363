import { countedList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { toAccount } from "./accounts.dto";
import { accountUsageRoute, getAccountRoute, listAccountsRoute, updateAccountRoute } from "./accounts.routes";
import { accountUsage, getOwnAccount, listOwnAccounts, patchAccount } from "./accounts.service";

export const accountsRouter = createRouter()
  .openapi(listAccountsRoute, async (c) => {
    return c.json(countedList(await listOwnAccounts(c.var.ctx.db, c.var.ctx.accountId)), 200);
  })
  .openapi(getAccountRoute, async (c) => {
    const account = await getOwnAccount(c.var.ctx.db, c.var.ctx.accountId, c.req.valid("param").id);
    return c.json(toAccount(account), 200);
  })
  .openapi(updateAccountRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await patchAccount(c.var.ctx.db, c.var.ctx.accountId, id, c.req.valid("json")), 200);
  })
  .openapi(accountUsageRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await accountUsage(c.var.ctx.db, c.var.ctx.accountId, id), 200);
  });
