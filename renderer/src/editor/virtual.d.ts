/** `@islet/sdk`'s ambient declarations, generated at build time (electron.vite.config.ts). */
declare module "virtual:islet-sdk-types" {
  const declarations: string;
  export default declarations;
}
