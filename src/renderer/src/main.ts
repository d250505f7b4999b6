import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './App.vue'
import { createLabClient, setLab } from './api'
import { pageTransport } from './transports'
import './styles.css'

setLab(createLabClient(pageTransport()))
createApp(App).use(createPinia()).mount('#app')
