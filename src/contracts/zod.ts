import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

// Every contract imports z from here so that `.openapi()` is available before any schema is built.
extendZodWithOpenApi(z);

export { z };
