// Stylesheets are bundled by Vite: importing one adds it to the page.
declare module "*.css";
