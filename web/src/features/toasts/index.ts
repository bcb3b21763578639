// The HD status toast, mounted once by the app layout.
export { HdToasts } from './hd-toasts';
