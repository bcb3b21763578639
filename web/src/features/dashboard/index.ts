// Dashboard: the gallery of the user's LD images, with search, tags, stars and HD orders.
export { DashboardScreen } from './dashboard-screen';
