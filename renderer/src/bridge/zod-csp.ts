/**
 * zod compiles object parsers with `new Function` unless told not to; under the renderer's CSP
 * (no 'unsafe-eval') its probe for that is blocked and reported as a CSP violation. Import this
 * before any module that builds a zod schema.
 */
import { z } from "zod";

z.config({ jitless: true });
