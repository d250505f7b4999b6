import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './App.vue'
import { createLabClient, setFileDialogs, setLab } from './api'
import { warmChartCode } from './lib/chart-setup'
import { pageTransport } from './transports'
import './styles.css'

setLab(createLabClient(pageTransport()))
setFileDialogs(window.lab?.dialogs ?? null)
createApp(App).use(createPinia()).mount('#app')
// chart.js's code compiled in idle moments now, not in the middle of the first run
warmChartCode()
