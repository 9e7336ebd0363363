import { z } from "@hono/zod-openapi";
import { idempotencyHeader } from "../../lib/idempotent-create";
import { defineRoute, ErrorSchema, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  CreateCustomerBodySchema,
  CustomerListQuerySchema,
  CustomerListSchema,
  CustomerParamsSchema,
  CustomerSchema,
  UpdateCustomerBodySchema,
} from "./customers.schemas";

const tags = ["Customers"];

export const listCustomersRoute = defineRoute("read", {
  method: "get",
  path: "/v1/customers",
  tags,
  summary: "List customers",
  description:
    "Customers of the workspace, newest first, `limit` 50 by default (at most 100). `email` matches one address exactly, in any case; `q` finds text anywhere in the name or the email, ignoring the case of ASCII letters. `total` counts the customers matching the filters.",
  request: { query: CustomerListQuerySchema },
  responses: { 200: jsonResponse(CustomerListSchema, "A page of customers.") },
});

export const createCustomerRoute = defineRoute("write", {
  method: "post",
  path: "/v1/customers",
  tags,
  summary: "Create a customer",
  description:
    "The email is stored lowercase and is unique in the workspace whatever its case: 409 `customer_exists` when another customer has it. Tickets created with a new customer email create the customer themselves.",
  request: {
    headers: idempotencyHeader("A retried create answers the first customer, not 409 `customer_exists`."),
    body: jsonBody(CreateCustomerBodySchema),
  },
  responses: {
    201: jsonResponse(CustomerSchema, "The new customer."),
    409: jsonResponse(
      ErrorSchema,
      "A customer with this email already exists (`customer_exists`), or the Idempotency-Key was used with another body (`idempotency_key_reused`).",
    ),
  },
});

export const getCustomerRoute = defineRoute("read", {
  method: "get",
  path: "/v1/customers/{id}",
  tags,
  summary: "Get a customer",
  request: { params: CustomerParamsSchema },
  responses: { 200: jsonResponse(CustomerSchema, "The customer.") },
});

export const updateCustomerRoute = defineRoute("write", {
  method: "patch",
  path: "/v1/customers/{id}",
  tags,
  summary: "Update a customer",
  description:
    "Changes only the fields given. `metadata` replaces the whole object; `null` clears `name` or `phone`. `blocked: true` stops the customer from opening tickets. `unsubscribed: true` stops campaign emails to the customer and stamps `unsubscribed_at` (kept if already unsubscribed); `false` clears both. A new email already used by another customer of the workspace, in any case, gives 409 `customer_exists`.",
  request: { params: CustomerParamsSchema, body: jsonBody(UpdateCustomerBodySchema) },
  responses: {
    200: jsonResponse(CustomerSchema, "The updated customer."),
    409: jsonResponse(ErrorSchema, "Another customer has this email."),
  },
});

export const deleteCustomerRoute = defineRoute("write", {
  method: "delete",
  path: "/v1/customers/{id}",
  tags,
  summary: "Delete a customer",
  description:
    "Deletes a customer that has no tickets. Tickets always keep their customer, so while any exist the answer is 409 `customer_has_tickets`: delete those tickets first.",
  request: { params: CustomerParamsSchema },
  responses: {
    200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted."),
    409: jsonResponse(ErrorSchema, "The customer still has tickets."),
  },
});
